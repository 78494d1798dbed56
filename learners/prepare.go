package learners

import (
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/internal/colstats"
)

// Standardize returns a dense row-major copy of X with every column
// standardised to mean 0 and unit variance, and the means and scales that
// did it (a model stores them and applies (x − mean)/scale at predict
// time). X must have passed CheckData.
//
// The scale is the population standard deviation by the corrected
// two-pass formula, 1 for a constant column (which is then only centred).
// Every product is rounded on its own (float64(a*b)), so the Go compiler
// cannot fuse it into an FMA on arm64 and the statistics, hence the model,
// have the same bits on every architecture.
func Standardize(X featmap.Matrix) (mean, scale, xs []float64, err error) {
	return colstats.Standardize(X, nil, false)
}
