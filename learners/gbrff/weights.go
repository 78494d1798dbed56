package gbrff

import (
	"context"
	"errors"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// FitWeighted is Fit with a weight per row (w == nil: Fit). A weight of 0
// drops the row; all-zero, negative or non-finite weights are errors.
//
// Regression: the weights multiply every row's loss (the weighted mean
// of the targets for H⁰, weighted sums in α and in the early-stopping
// loss, weighted standardisation of the inputs) and scale the targets ỹ of
// the phase and frequency steps (ỹ_i = (c_i/c̄)·g_i/rms). The steps'
// surrogate Σ exp(−ỹ_i h_i) is not linear in ỹ, so a weight of 2 matches
// a duplicated row to first order in ỹ·h, not exactly; α, H⁰ and the
// standardisation match exactly up to the summation order.
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	switch {
	case w == nil:
		return Fit(ctx, X, y, cfg)
	case cfg.Task == learners.Regression:
		return fitRegression(ctx, X, y, w, cfg)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return nil, errors.New("gbrff: sample weights are not implemented for binary classification yet (Task = regression takes them)")
}
