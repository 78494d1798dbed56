package kit

import (
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// constModel always predicts label.
type constModel struct{ label float64 }

func (m constModel) NumInputs() int      { return 1 }
func (m constModel) Task() learners.Task { return learners.Binary }
func (m constModel) Predict([]float64) float64 {
	return m.label
}
func (m constModel) PredictBatch([]float64, featmap.Matrix) error { return nil }
func (m constModel) MarshalBinary() ([]byte, error)               { return nil, nil }

// TestHeldOutCheck: a model that always answers the minority class is
// below the class prior, one that answers the majority is not.
func TestHeldOutCheck(t *testing.T) {
	y := []float64{1, 1, 1, -1, 1, 1, 1, -1, 1, 1}
	X := featmap.Dense(len(y), 1, make([]float64, len(y)))
	train, test := []int{0, 1, 2, 3, 4}, []int{5, 6, 7, 8, 9}
	st := heldOutCheck(constModel{-1}, X, y, nil, train, test)
	if st.HeldOutRows != 5 || st.HeldOut != 0.2 || st.Baseline != 0.8 || !st.BelowBaseline {
		t.Errorf("minority answer: %+v, want held-out 0.2 below the prior 0.8", st)
	}
	if !strings.Contains(st.String(), "WORSE THAN THE CLASS PRIOR") {
		t.Errorf("String %q does not say it is below the prior", st.String())
	}
	st = heldOutCheck(constModel{1}, X, y, []float64{1, 1, 1, 1, 1, 1, 1, 5, 1, 1}, train, test)
	// weighted: the held-out rows weigh 1+1+5+1+1, the majority of the
	// training rows (+1) is right on 4 of them
	if st.HeldOut != 4.0/9 || st.Baseline != 4.0/9 || st.BelowBaseline {
		t.Errorf("majority answer: %+v, want 4/9 and not below", st)
	}
	if (learners.FitStats{}).String() != "" {
		t.Error("an empty check prints")
	}
}
