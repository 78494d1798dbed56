package linrf

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// TestMulticlassScore: a multiclass head's Score is the margin of the best
// of its Scores over the runner-up, with the same work buffer.
func TestMulticlassScore(t *testing.T) {
	const d, D, K = 3, 16, 4
	rff, err := featmap.NewRFF(featmap.RFFConfig{Inputs: d, Features: D, Gamma: 0.5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	coef := make([]float64, K*D)
	for j := range coef {
		coef[j] = float64(j%7) - 3
	}
	h := &Head{RFF: rff, Coef: coef, Biases: []float64{0.5, -1, 2, 0}}
	w := h.NewWork()
	s := make([]float64, K)
	for i := range 5 {
		z := []float64{float64(i) - 2, 0.5, float64(i%2) - 0.3}
		h.Scores(s, z, w)
		want := vec.Margin(s)
		if got := h.Score(z, w); got != want || !(want > 0) {
			t.Errorf("row %d: Score %v, margin of Scores %v (%v)", i, got, want, s)
		}
	}
}

// TestSubset: the features of Subset(rff, idx) are the features idx of
// rff (in that order, a repeat twice), rescaled from √(2/D) to √(2/M).
func TestSubset(t *testing.T) {
	const d, D = 3, 8
	rff, err := featmap.NewRFF(featmap.RFFConfig{Inputs: d, Features: D, Gamma: 0.5, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{5, 0, 5, 7}
	sub, err := Subset(rff, idx)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Inputs() != d || sub.Outputs() != len(idx) {
		t.Fatalf("Subset is %d → %d, want %d → %d", sub.Inputs(), sub.Outputs(), d, len(idx))
	}
	x := []float64{0.3, -1.2, 2}
	full, part := make([]float64, D), make([]float64, len(idx))
	rff.TransformRow(full, x)
	sub.TransformRow(part, x)
	for t2, j := range idx {
		want := full[j] / rff.Scale() * sub.Scale()
		if math.Abs(part[t2]-want) > 1e-12 {
			t.Errorf("feature %d (of %d): %v, want %v", t2, j, part[t2], want)
		}
	}
}
