package prff

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/prep"
	"github.com/rfkit/rfkit/solvers"
)

// Fit trains a model on the rows of X (n×d) and the labels or targets y
// (len n): it standardises X, learns a PRFF map on the standardised rows
// (Learn) and fits the linear model cfg.Loss on its features. Binary labels
// may be any two distinct values (the smaller maps to −1); Predict returns
// them.
//
// Errors: a cancelled ctx, an invalid cfg, empty or ragged data, NaN or ±Inf
// in X or y, a binary y without exactly two classes, a failing bandwidth
// rule (set Gamma) or solver, or an error returned by cfg.Progress
// (wrapped). The result depends only on the data and cfg, not on
// GOMAXPROCS. Memory: the n×D feature matrix, plus D×D for ridge. ctx is
// checked after each feature, not inside the solver.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := learners.CheckData(X, y); err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	n, d := X.Rows, X.Cols
	c := cfg.resolve()
	D := c.Features
	if n > math.MaxInt/D/8 {
		return nil, fmt.Errorf("prff: %d rows × %d features do not fit in memory", n, D)
	}
	m := &Model{}
	t := y
	if c.Task == learners.Binary {
		var err error
		if t, m.labels, err = learners.BinaryLabels(y); err != nil {
			return nil, fmt.Errorf("prff: %w", err)
		}
	}

	scaler, xs, err := prep.Standardize(X)
	if err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	m.mean, m.scale = scaler.Mean, scaler.Scale
	m.fmap, c, err = learn(ctx, xs, n, d, c, cfg.Progress, 1, start)
	if err != nil {
		return nil, err
	}
	m.cfg = c
	z := make([]float64, n*D)
	if err := m.fmap.rff.Transform(featmap.Dense(n, D, z), featmap.Dense(n, d, xs)); err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}

	var loss float64
	switch c.Loss {
	case Logistic:
		var info solvers.Result
		m.coef, m.bias, err = solvers.Logistic(z, n, D, t, c.Lambda, solvers.LogisticOptions{Info: &info})
		loss = info.F
	case Ridge:
		m.coef, m.bias, err = solvers.Ridge(z, n, D, t, c.Lambda, solvers.RidgeOptions{})
		loss = ridgeObjective(z, t, m.coef, m.bias, c.Lambda)
	}
	if err != nil {
		return nil, fmt.Errorf("prff: %s solver: %w", c.Loss, err)
	}
	e := learners.Event{Method: Name, Round: D + 1, Rounds: D + 1, Loss: loss, Elapsed: time.Since(start)}
	if err := cfg.Progress.Report(e); err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	return newModel(m), nil
}

// ridgeObjective is (1/n)‖t − Zw − c‖² + λ‖w‖², Z n×len(w) row-major.
func ridgeObjective(z, t, w []float64, c, lambda float64) float64 {
	D := len(w)
	var sse float64
	for i, ti := range t {
		r := ti - dot(w, z[i*D:(i+1)*D]) - c
		sse += float64(r * r)
	}
	return sse/float64(len(t)) + float64(lambda*dot(w, w))
}
