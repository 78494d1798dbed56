package learners

import (
	"errors"
	"fmt"
	"math"
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

// BinaryLabels checks that y holds exactly two distinct finite values and
// returns y mapped onto ±1 (a new slice) with the mapping. The errors say
// what is wrong: no labels, a non-finite label, one class, more than two.
func BinaryLabels(y []float64) (signs []float64, l Labels, err error) {
	if len(y) == 0 {
		return nil, Labels{}, errors.New("labels: no labels (empty data)")
	}
	a, b, haveB := y[0], 0.0, false
	for i, v := range y {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, Labels{}, fmt.Errorf("labels: y[%d] is %v: labels must be finite", i, v)
		case v == a || (haveB && v == b):
		case haveB:
			return nil, Labels{}, fmt.Errorf("labels: more than two classes (%v, %v and %v, first at y[%d]); binary classification needs exactly two (use the multiclass task for three or more classes, the regression task for real-valued targets)", min(a, b), max(a, b), v, i)
		default:
			b, haveB = v, true
		}
	}
	if !haveB {
		return nil, Labels{}, fmt.Errorf("labels: only one class (every label is %v); binary classification needs two", a)
	}
	l = Labels{Neg: min(a, b), Pos: max(a, b)}
	signs = make([]float64, len(y))
	for i, v := range y {
		signs[i] = -1
		if v == l.Pos {
			signs[i] = 1
		}
	}
	return signs, l, nil
}
