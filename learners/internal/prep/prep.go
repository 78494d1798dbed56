// Package prep keeps the names the fit algorithms of gbrff still call
// (their round logic is being rewritten in parallel); the code is package
// learners' (Standardize, Rows), so there is one copy.
package prep

import (
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Standardize is learners.Standardize returning a dataset.Scaler.
func Standardize(X featmap.Matrix) (*dataset.Scaler, []float64, error) {
	mean, scale, xs, err := learners.Standardize(X)
	if err != nil {
		return nil, nil, err
	}
	return &dataset.Scaler{Mean: mean, Scale: scale}, xs, nil
}

// Rows is learners.Rows.
func Rows(X featmap.Matrix, idx []int) featmap.Matrix { return learners.Rows(X, idx) }
