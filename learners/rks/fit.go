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
// to −1); Predict returns them.
//
// Errors: a cancelled ctx, an invalid cfg, empty or ragged data, NaN or ±Inf
// in X or y, a binary y without exactly two classes, a failing solver, or
// an error returned by cfg.Progress (wrapped). The result depends only on
// the data and cfg, not on GOMAXPROCS. Memory: the n×D feature matrix, plus
// D×D for ridge. ctx is checked between rounds, not inside the solver.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	start := time.Now()
	p, err := learners.Prepare(ctx, Name, cfg, cfg.Task, X, y)
	if err != nil {
		return nil, err
	}
	n, d := p.N, p.D
	c := cfg.resolve(d)
	D := c.Features
	if n > math.MaxInt/D/8 {
		return nil, fmt.Errorf("rks: %d rows × %d features do not fit in memory", n, D)
	}
	t := p.Targets
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
	b.Coef, b.Bias, loss, err = linrf.Solve(z, n, D, t, c.Loss == Logistic, c.Lambda)
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
	if err := p.Report(e); err != nil {
		return fmt.Errorf("rks: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("rks: %w", err)
	}
	return nil
}
