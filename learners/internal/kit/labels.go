package kit

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/internal/xmath"
)

// ClassLabels checks that y holds between 3 and MaxClasses distinct finite
// values and returns each label's class index 0..K−1 (as float64, a new
// slice) and the K labels in increasing order. The errors say what is
// wrong: no labels, a non-finite label, fewer than three classes (two
// are the binary task), more than MaxClasses (a real-valued target is a
// regression problem).
func ClassLabels(y []float64) (index, classes []float64, err error) {
	if len(y) == 0 {
		return nil, nil, errors.New("labels: no labels (empty data)")
	}
	seen := make(map[float64]struct{})
	for i, v := range y {
		if !xmath.Finite(v) {
			return nil, nil, fmt.Errorf("labels: y[%d] is %v: labels must be finite", i, v)
		}
		if _, ok := seen[v+0]; !ok { // +0: −0 and 0 are one class
			if len(seen) == modelfile.MaxClasses {
				return nil, nil, fmt.Errorf("labels: more than %d classes (the %dth distinct label, %v, is y[%d]); the multiclass task takes at most %d (use the regression task for real-valued targets)", modelfile.MaxClasses, modelfile.MaxClasses+1, v, i, modelfile.MaxClasses)
			}
			seen[v+0] = struct{}{}
		}
	}
	classes = make([]float64, 0, len(seen))
	for v := range seen {
		classes = append(classes, v)
	}
	slices.Sort(classes)
	switch len(classes) {
	case 1:
		return nil, nil, fmt.Errorf("labels: only one class (every label is %v); multiclass classification needs three or more", classes[0])
	case 2:
		return nil, nil, fmt.Errorf("labels: two classes (%v and %v); the multiclass task needs three or more (use the binary task)", classes[0], classes[1])
	}
	index = make([]float64, len(y))
	for i, v := range y {
		k, _ := slices.BinarySearch(classes, v)
		index[i] = float64(k)
	}
	return index, classes, nil
}

// NewClasses checks the K labels of a multiclass model as stored in a
// model file: 3..MaxClasses finite values in increasing order.
func NewClasses(classes []float64) error {
	if len(classes) < 3 || len(classes) > modelfile.MaxClasses {
		return fmt.Errorf("%d classes, want 3..%d", len(classes), modelfile.MaxClasses)
	}
	for k, v := range classes {
		if !xmath.Finite(v) || (k > 0 && !(classes[k-1] < v)) {
			return fmt.Errorf("classes %v: want finite values in increasing order", classes)
		}
	}
	return nil
}
