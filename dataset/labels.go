package dataset

import (
	"errors"
	"fmt"
	"math"
)

// BinaryLabels maps a label vector with exactly two distinct values onto
// -1/+1: the smaller value becomes -1 and the larger +1. It returns the
// mapped labels (a new slice) and the original values (neg, pos) so that
// predictions can be mapped back: -1 → neg, +1 → pos. Labels that are
// already -1/+1 map to themselves.
//
// It is an error for y to be empty, to contain NaN or ±Inf, or to have one
// distinct value or more than two.
func BinaryLabels(y []float64) (mapped []float64, neg, pos float64, err error) {
	if len(y) == 0 {
		return nil, 0, 0, errors.New("dataset: BinaryLabels: no labels")
	}
	a, b := y[0], y[0]
	haveB := false
	for i, v := range y {
		if !finite(v) {
			return nil, 0, 0, fmt.Errorf("dataset: BinaryLabels: label %d is %v (labels must be finite)", i, v)
		}
		if v == a || (haveB && v == b) {
			continue
		}
		if haveB {
			lo, mid, hi := sort3(a, b, v)
			return nil, 0, 0, fmt.Errorf("dataset: BinaryLabels: more than two classes (found %v, %v and %v)", lo, mid, hi)
		}
		b, haveB = v, true
	}
	if !haveB {
		return nil, 0, 0, fmt.Errorf("dataset: BinaryLabels: only one class (every label is %v)", a)
	}
	neg, pos = math.Min(a, b), math.Max(a, b)
	mapped = make([]float64, len(y))
	for i, v := range y {
		if v == pos {
			mapped[i] = 1
		} else {
			mapped[i] = -1
		}
	}
	return mapped, neg, pos, nil
}

func sort3(a, b, c float64) (float64, float64, float64) {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return a, b, c
}
