package rks

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// rounds is the number of progress events of a Fit: features, solve.
const rounds = 2

// Fit trains a model on the rows of X (n×d) and the labels or targets y
// (len n). Binary labels may be any two distinct values (the smaller maps
// to −1); Multiclass labels any 3..learners.MaxClasses finite values;
// Predict returns them.
//
// Errors: a cancelled ctx, an invalid cfg, empty or ragged data, NaN (unless
// cfg.Missing imputes) or ±Inf in X or y, a binary y without exactly two
// classes, a multiclass y with fewer than three or too many, a failing
// solver, or
// an error returned by cfg.Progress (wrapped). The result depends only on
// the data and cfg, not on GOMAXPROCS. Memory: the n×D feature matrix, plus
// D×D for ridge. ctx is checked between rounds, not inside the solver.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	return FitWeighted(ctx, X, y, nil, cfg)
}

// FitWeighted is Fit with a weight per row (w == nil: none). The weights
// enter the standardisation (weighted means and variances) and the loss
// (a weighted mean), so a weight of 2 gives the model of the row
// duplicated, up to the order of the sums, and 0 drops the row; the random
// map does not depend on the data. Errors beside Fit's: len(w) != n, a
// negative, NaN or infinite weight, all weights 0.
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	start := time.Now()
	p, err := learners.PrepareWeighted(ctx, Name, cfg, cfg.Task, X, y, w)
	if err != nil {
		return nil, err
	}
	n, d := p.N, p.D
	c := cfg.resolve(d)
	D := c.Features
	if n > math.MaxInt/D/8 {
		return nil, fmt.Errorf("rks: %d rows × %d features do not fit in memory", n, D)
	}
	b := &body{cfg: c}

	// Round 1: sample the map, compute the features.
	z, err := b.features(featmap.Dense(n, d, p.Z))
	if err != nil {
		return nil, err
	}
	if err := report(ctx, cfg.Progress, 1, math.NaN(), start); err != nil {
		return nil, err
	}

	// Round 2: the linear model.
	var loss float64
	loss, err = b.FitReadout(z, D, p, c.Loss, c.Lambda)
	if err != nil {
		return nil, fmt.Errorf("rks: %s solver: %w", c.Loss, err)
	}
	if err := report(ctx, cfg.Progress, 2, loss, start); err != nil {
		return nil, err
	}
	m := new(Model)
	learners.Build(&m.Base, p.Common(c.Task, linrf.Link(c.Loss)), b)
	return m, nil
}

// report sends the progress event of a finished round and checks ctx.
func report(ctx context.Context, p learners.Progress, round int, loss float64, start time.Time) error {
	e := learners.Event{Method: Name, Round: round, Rounds: rounds, Loss: loss, Elapsed: time.Since(start)}
	return p.EndRound(ctx, "rks", e)
}
