package rks

import (
	"context"
	"math"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// rounds is the number of progress events of a Fit: features, solve.
const rounds = 2

// Fit trains a model on the rows of X (n×d) and the labels or targets y
// (len n), labels and data as kit.PrepareWeighted takes them (whose
// errors Fit returns), then errors of the solver or of cfg.Progress
// (wrapped). The result depends only on the data and cfg, not on
// GOMAXPROCS. Memory: the n×D feature matrix, plus D×D for ridge. ctx is
// checked between rounds, not inside the solver.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	return FitWeighted(ctx, X, y, nil, cfg)
}

// FitWeighted is Fit with a weight per row (w == nil: none; their rules
// and errors are learners.Method.FitWeighted's and PrepareWeighted's): the
// weights enter the standardisation and the loss as weighted means; the
// random map does not depend on the data.
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// γ × {1, ¼, 4} when Gamma is 0 (kit.GammaOptions), for regression
// with Lambda 0 each with λ × {1, 100} (regressionLambdaFactors), on a
// held-out half of the rows and fits the best on every row; a classifier's
// probabilities are calibrated on the same half unless Calibrate is
// Disabled. Cost: one fit on every row plus one on half the rows per
// candidate (about 1 + candidates/2 fits).
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, methodName, cfg.Task, X, y, w, cfg, sub, candidates(cfg, X.Cols), kit.On(cfg.Calibrate, cfg.Task != learners.Multiclass), cfg.Seed, fitWeighted)
}

// candidates are the settings the default fit compares: γ times each of
// kit.GammaFactors when Gamma is 0 (the default 1/d first, left at 0
// so that it resolves as before), and for regression with Lambda 0 also
// λ times each of regressionLambdaFactors.
func candidates(cfg Config, d int) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) {
		return nil
	}
	var lambdas []kit.Setting[Config]
	if cfg.Task == learners.Regression {
		lambdas = kit.ScaleOptions(cfg.Lambda, DefaultLambda, func(c *Config, l float64) { c.Lambda = l }, regressionLambdaFactors...)
	}
	return kit.Grid(kit.GammaOptions(cfg.Gamma, d, func(c *Config, g float64) { c.Gamma = g }), lambdas)
}

// regressionLambdaFactors are the multiples of DefaultLambda a regression
// default fit compares besides γ: the ridge at 1e-3 fitted the noise of
// SE1 (3000 rows, a target the 100 random features cannot follow) to a
// test RMSE 1–2 % above the training mean's, at 0.1 it was within 0.1 %
// of it (seeds 1–3).
var regressionLambdaFactors = []float64{1, 100}

// fitWeighted is FitWeighted without the calibration.
func fitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	r := kit.NewRounds(ctx, cfg.Progress, methodName, methodName, rounds)
	p, err := kit.PrepareWeighted(ctx, methodName, cfg, cfg.Task, X, y, w)
	if err != nil {
		return nil, err
	}
	c := cfg.resolve(p.D)
	if err := p.CheckSize(methodName, c.Features); err != nil {
		return nil, err
	}
	b := &body{cfg: c}

	// Round 1: sample the map, compute the features.
	m, err := b.draw(featmap.Dense(p.N, p.D, p.Z))
	if err != nil {
		return nil, err
	}
	z, err := linrf.Features(methodName, p, m, cfg.Threads)
	if err != nil {
		return nil, err
	}
	if err := r.End(1, math.NaN()); err != nil {
		return nil, err
	}

	// Round 2: the linear model.
	loss, err := b.FitReadout(methodName, z, p, c.Loss, c.Lambda, solvers.LogisticHead)
	if err != nil {
		return nil, err
	}
	if err := r.End(2, loss); err != nil {
		return nil, err
	}
	return kit.New[Model](p.Common(c.Task, linrf.Link(c.Loss)), b), nil
}
