package fogd

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestAverage: the average of Snapshots of Learners resumed from one
// model has the mean current weights, the step-weighted mean of the
// averaged weights and the mean step count, and resumes; one model
// averages to its own bytes; mismatched models are errors.
func TestAverage(t *testing.T) {
	const d = 2
	l0, err := NewLearner(d, Config{Features: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	base := l0.Snapshot()
	shards := learnertest.Shards(t, Resume, base, []int{10, 15, 20}, func(s, i int) []float64 {
		return []float64{float64(i+s) / 10, math.Sin(float64(i))}
	})
	avg, err := Average(shards...)
	if err != nil {
		t.Fatal(err)
	}
	b := avg.Body()
	if b.steps != 15 {
		t.Fatalf("steps %d, want 15", b.steps)
	}
	for k := range b.wt {
		s0, s1, s2 := shards[0].Body(), shards[1].Body(), shards[2].Body()
		if want := (s0.wt[k] + s1.wt[k] + s2.wt[k]) / 3; b.wt[k] != want {
			t.Fatalf("wt[%d] = %v, want %v", k, b.wt[k], want)
		}
		want := (s0.wsum[k] + s1.wsum[k] + s2.wsum[k]) / 45
		if math.Abs(b.w[k]-want) > 1e-14*math.Abs(want) {
			t.Fatalf("w[%d] = %v, want %v", k, b.w[k], want)
		}
	}
	data := learnertest.Bytes(t, avg)
	back, err := Load(data)
	if err != nil {
		t.Fatalf("the average does not load: %v", err)
	}
	if _, err := Resume(back); err != nil {
		t.Fatal(err)
	}
	other, err := NewLearner(d, Config{Features: 8, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Average(t, Average, shards[2], other.Snapshot())
}
