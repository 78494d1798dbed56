package rrf

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
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

// TestFitTailAverage: a Fit of 4 epochs in file order has the weights and
// biases averaged over the steps of its last 2 epochs and the log-widths
// of its last step, as a Learner that takes the same steps gives them; a
// Fit of one epoch has the last iterate.
func TestFitTailAverage(t *testing.T) {
	const n, d = 60, 2
	X, y := make([]float64, n*d), make([]float64, n)
	for i := range n {
		a, b := math.Sin(float64(i)), math.Cos(float64(3*i))
		X[i*d], X[i*d+1] = a, b
		y[i] = -1
		if a*b > 0.1 {
			y[i] = 1
		}
	}
	off := learners.Disabled
	cfg := Config{Features: 8, Eta: 0.05, Seed: 4, Shuffle: off, Standardize: off, Calibrate: off, Search: off}
	for _, epochs := range []int{1, 4} {
		cfg.Epochs = epochs
		m, err := Fit(context.Background(), featmap.Dense(n, d, X), y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewLearner(d, cfg)
		if err != nil {
			t.Fatal(err)
		}
		p := l.p
		sw, sb, steps := make([]float64, len(p.w)), make([]float64, len(p.b)), 0
		for ep := 1; ep <= epochs; ep++ {
			for i := range n {
				if _, err := l.Update(X[i*d:(i+1)*d], y[i]); err != nil {
					t.Fatal(err)
				}
				if ep > epochs-epochs/2 {
					addTo(sw, p.w)
					addTo(sb, p.b)
					steps++
				}
			}
		}
		want, wantB := slices.Clone(p.w), slices.Clone(p.b)
		if steps > 0 {
			for k := range want {
				want[k] = sw[k] / float64(steps)
			}
			for k := range wantB {
				wantB[k] = sb[k] / float64(steps)
			}
			if slices.Equal(want, p.w) {
				t.Fatal("the averaged weights equal the last iterate: the test cannot tell them apart")
			}
		}
		q := m.Body().p
		if !slices.Equal(q.w, want) || !slices.Equal(q.b, wantB) {
			t.Errorf("%d epochs: the model's weights or bias are not the mean of the last %d epochs' iterates", epochs, epochs/2)
		}
		if !slices.Equal(q.lg, p.lg) {
			t.Errorf("%d epochs: log-widths %v, want the last step's %v", epochs, q.lg, p.lg)
		}
	}
}
