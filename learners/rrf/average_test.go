package rrf

import (
	"math"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestAverage: the average of Snapshots of Learners resumed from one
// model has the element-wise means (in argument order) of their
// log-widths, weights and biases, widths e^γ̃ and the common noise; one
// model averages to its own bytes; mismatched models are errors.
func TestAverage(t *testing.T) {
	const d = 3
	l0, err := NewLearner(d, Config{Features: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := l0.SetStandardization([]float64{1, 2, 3}, []float64{1, 2, 4}); err != nil {
		t.Fatal(err)
	}
	base := l0.Snapshot()
	shards := learnertest.Shards(t, Resume, base, []int{20, 20, 20}, func(s, i int) []float64 {
		return []float64{float64(i + s), math.Sin(float64(i)), float64(s)}
	})
	avg, err := Average(shards...)
	if err != nil {
		t.Fatal(err)
	}
	p := avg.Body().p
	for name, get := range map[string]func(*params) []float64{
		"lg": func(q *params) []float64 { return q.lg }, "w": func(q *params) []float64 { return q.w }, "b": func(q *params) []float64 { return q.b }} {
		got := get(p)
		for k := range got {
			want := (get(shards[0].Body().p)[k] + get(shards[1].Body().p)[k] + get(shards[2].Body().p)[k]) / 3
			if got[k] != want {
				t.Fatalf("%s[%d] = %v, want %v", name, k, got[k], want)
			}
		}
	}
	if slices.Equal(p.w, shards[0].Body().p.w) {
		t.Fatal("the average equals shard 0: the shards did not differ")
	}
	for j := range d {
		if math.Abs(p.sc[j]-math.Exp(p.lg[j])) > 1e-15*p.sc[j] {
			t.Fatalf("sc[%d] = %v, want e^%v", j, p.sc[j], p.lg[j])
		}
	}
	if !slices.Equal(p.e, shards[0].Body().p.e) {
		t.Fatal("noise changed")
	}
	mean, scale := avg.Standardization()
	if !slices.Equal(mean, []float64{1, 2, 3}) || !slices.Equal(scale, []float64{1, 2, 4}) {
		t.Fatalf("standardisation %v %v", mean, scale)
	}
	other, err := NewLearner(d, Config{Features: 8, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Average(t, Average, shards[1], other.Snapshot())
}
