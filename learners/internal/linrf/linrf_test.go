package linrf

import (
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
