package rks

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/solvers"
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
	b.RFF, err = featmap.NewRFF(featmap.RFFConfig{Inputs: d, Features: D, Gamma: c.Gamma, Seed: c.Seed})
	if err != nil {
		return nil, fmt.Errorf("rks: %w", err)
	}
	z := make([]float64, n*D)
	if err := b.RFF.Transform(featmap.Dense(n, D, z), featmap.Dense(n, d, p.Z)); err != nil {
		return nil, fmt.Errorf("rks: %w", err)
	}
	if err := report(ctx, cfg.Progress, 1, math.NaN(), start); err != nil {
		return nil, err
	}

	// Round 2: the linear model.
	var loss float64
	switch c.Loss {
	case Logistic:
		var info solvers.Result
		b.Coef, b.Bias, err = solvers.Logistic(z, n, D, t, c.Lambda, solvers.LogisticOptions{Info: &info})
		loss = info.F
	case Ridge:
		b.Coef, b.Bias, err = solvers.Ridge(z, n, D, t, c.Lambda, solvers.RidgeOptions{})
		loss = ridgeObjective(z, t, b.Coef, b.Bias, c.Lambda)
	}
	if err != nil {
		return nil, fmt.Errorf("rks: %s solver: %w", c.Loss, err)
	}
	if err := report(ctx, cfg.Progress, 2, loss, start); err != nil {
		return nil, err
	}
	m := new(Model)
	learners.Build(&m.Base, p.Common(c.Task, c.link()), b)
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

// ridgeObjective is (1/n)‖t − Zw − c‖² + λ‖w‖², Z n×len(w) row-major.
func ridgeObjective(z, t, w []float64, c, lambda float64) float64 {
	D := len(w)
	var sse, ww float64
	for i, ti := range t {
		r := ti - dot(w, z[i*D:(i+1)*D]) - c
		sse += float64(r * r)
	}
	for _, v := range w {
		ww += float64(v * v)
	}
	return sse/float64(len(t)) + float64(lambda*ww)
}

// dot is Σ a_j·b_j with explicit FMAs, so it rounds the same on every
// architecture (the Go compiler fuses a*b+c on some and not on others).
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for j, v := range a {
		s = math.FMA(v, b[j], s)
	}
	return s
}
