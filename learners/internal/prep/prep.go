// Package prep validates and standardises the training data of rfkit
// learners. Its errors carry no package prefix: learners wrap them with
// their own ("rks: X[3, 1] is NaN: inputs must be finite").
package prep

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
)

// Shape checks that X is a well-formed view with at least one row and
// column and, if cols > 0, exactly cols columns.
func Shape(X featmap.Matrix, cols int) error {
	switch {
	case X.Rows <= 0 || X.Cols <= 0:
		return fmt.Errorf("X is %d×%d: empty data (need at least one row and one column)", X.Rows, X.Cols)
	case cols > 0 && X.Cols != cols:
		return fmt.Errorf("X has %d columns, the model takes %d inputs", X.Cols, cols)
	case X.Stride < X.Cols:
		return fmt.Errorf("X stride %d is below its %d columns", X.Stride, X.Cols)
	case X.Rows > 1 && X.Stride > (math.MaxInt-X.Cols)/(X.Rows-1):
		return fmt.Errorf("X is %d×%d with stride %d: too large", X.Rows, X.Cols, X.Stride)
	case len(X.Data) < (X.Rows-1)*X.Stride+X.Cols:
		return fmt.Errorf("X is %d×%d with stride %d and needs %d elements, has %d",
			X.Rows, X.Cols, X.Stride, (X.Rows-1)*X.Stride+X.Cols, len(X.Data))
	}
	return nil
}

// Check validates a training set: Shape(X, 0), len(y) == X.Rows, and every
// value of X and y finite. The errors name the first offending row and
// column.
func Check(X featmap.Matrix, y []float64) error {
	if err := Shape(X, 0); err != nil {
		return err
	}
	if len(y) != X.Rows {
		return fmt.Errorf("X has %d rows but y has %d values", X.Rows, len(y))
	}
	for i := 0; i < X.Rows; i++ {
		for j, v := range X.Row(i) {
			if !finite(v) {
				return fmt.Errorf("X[%d, %d] is %v: inputs must be finite", i, j, v)
			}
		}
	}
	for i, v := range y {
		if !finite(v) {
			return fmt.Errorf("y[%d] is %v: targets must be finite", i, v)
		}
	}
	return nil
}

// Standardize returns a dense row-major copy of X with every column
// standardised to mean 0 and unit variance, and the scaler that did it
// (fitted on X; a model stores it and applies it at predict time with
// Scaler.Transform). X must have passed Check.
//
// The statistics are those of dataset.FitScaler (population standard
// deviation by the corrected two-pass formula; 1 for a constant column), but
// every product is rounded on its own (float64(a*b)), so the Go compiler
// cannot fuse it into an FMA on arm64 and the scaler, hence the model, has
// the same bits on every architecture.
func Standardize(X featmap.Matrix) (*dataset.Scaler, []float64, error) {
	n, d := X.Rows, X.Cols
	xs := make([]float64, n*d)
	for i := 0; i < n; i++ {
		copy(xs[i*d:(i+1)*d], X.Row(i))
	}
	s := &dataset.Scaler{Mean: make([]float64, d), Scale: make([]float64, d)}
	ss, sc := make([]float64, d), make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range xs[i*d : (i+1)*d] {
			s.Mean[j] += v
		}
	}
	for j := range s.Mean {
		s.Mean[j] /= float64(n)
	}
	for i := 0; i < n; i++ {
		for j, v := range xs[i*d : (i+1)*d] {
			dv := v - s.Mean[j]
			ss[j] += float64(dv * dv)
			sc[j] += dv
		}
	}
	for j := range s.Scale {
		sd := math.Sqrt(math.Max(0, (ss[j]-float64(sc[j]*sc[j])/float64(n))/float64(n)))
		switch {
		case !finite(sd) || !finite(s.Mean[j]):
			return nil, nil, fmt.Errorf("column %d: mean or standard deviation overflows float64", j)
		case sd == 0: // constant column (or a spread that underflows): centre it only
			sd = 1
		}
		s.Scale[j] = sd
	}
	s.Transform(xs, xs)
	return s, xs, nil
}

// Rows returns a dense copy of the rows idx of X.
func Rows(X featmap.Matrix, idx []int) featmap.Matrix {
	d := X.Cols
	out := make([]float64, len(idx)*d)
	for r, i := range idx {
		copy(out[r*d:(r+1)*d], X.Row(i))
	}
	return featmap.Dense(len(idx), d, out)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
