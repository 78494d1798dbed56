package learners

import "github.com/rfkit/rfkit/featmap"

// Rows returns a dense copy of the rows idx of X.
func Rows(X featmap.Matrix, idx []int) featmap.Matrix {
	d := X.Cols
	out := make([]float64, len(idx)*d)
	for r, i := range idx {
		copy(out[r*d:(r+1)*d], X.Row(i))
	}
	return featmap.Dense(len(idx), d, out)
}
