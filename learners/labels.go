package learners

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/modelfile"
)

// Labels maps a two-class label set onto −1/+1: Neg (the smaller original
// label) ↔ −1 and Pos (the larger) ↔ +1.
type Labels struct {
	Neg, Pos float64
}

// NewLabels returns the mapping for the original labels [neg, pos], as
// stored in a model file; neg < pos, both finite.
func NewLabels(neg, pos float64) (Labels, error) {
	l := Labels{Neg: neg, Pos: pos}
	if math.IsInf(neg, 0) || math.IsInf(pos, 0) || !(neg < pos) {
		return Labels{}, fmt.Errorf("labels %v, %v: want two finite values with neg < pos", neg, pos)
	}
	return l, nil
}

// Decode maps a score to an original label: Pos when score ≥ 0 (a score of
// exactly 0 counts as positive), Neg when score < 0, NaN when score is NaN.
func (l Labels) Decode(score float64) float64 {
	switch {
	case score >= 0:
		return l.Pos
	case score < 0:
		return l.Neg
	}
	return math.NaN()
}

// Encode maps an original label to ±1; other values are an error.
func (l Labels) Encode(v float64) (float64, error) {
	switch v {
	case l.Pos:
		return 1, nil
	case l.Neg:
		return -1, nil
	}
	return 0, fmt.Errorf("label %v is neither %v nor %v", v, l.Neg, l.Pos)
}

// Slice returns []float64{Neg, Pos}, the form a model file header stores.
func (l Labels) Slice() []float64 { return []float64{l.Neg, l.Pos} }

// MaxClasses is the largest number of classes a multiclass model may have
// (the model file's limit, modelfile.MaxClasses).
const MaxClasses = modelfile.MaxClasses
