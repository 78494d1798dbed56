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
	loss, err := b.FitReadout(methodName, z, p, c.Loss, c.Lambda, LogisticHead)
	if err != nil {
		return nil, err
	}
	if err := r.End(2, loss); err != nil {
		return nil, err
	}
	return kit.New[Model](p.Common(c.Task, linrf.Link(c.Loss)), b), nil
}

// logisticMemory is the L-BFGS memory of the logistic head (solvers'
// default is 10). Every evaluation is a pass over the n×D features, while
// a stored pair costs 4·(D+1) flops per iteration, so a longer memory is
// almost free and saves passes: on BenchmarkFit's problem (D = 100) the
// solve took 26 evaluations at n = 1e4 and 49 at 1e5 with memory 10,
// 22 and 33 with memory 40, with the same held-out error (0.2619, 0.2525);
// a full memory (101) gave the same counts as 40.
const logisticMemory = 40

// warmStride and warmRows: from warmStride·warmRows rows on, the logistic
// head starts from the solution on every warmStride-th row (to gradient
// 1e-5), which costs a tenth of a full evaluation per evaluation. On
// BenchmarkFit's problem at n = 1e5 the full solve then takes 18
// evaluations instead of 33 (the subsample's 14 cost 1.4 more), with the
// same held-out error (0.2525); at n = 1e4 the subsample is too small to
// pay (19 + 19 instead of 22), hence the threshold. The full solve still
// runs to the solver's gradient tolerance, so the start only changes the
// path, not where it stops. (Counts of plain L-BFGS; with the sampled
// Hessian see preconditionStride.)
const (
	warmStride = 10
	warmRows   = 5000
)

// hessianRowsPerDim and hessianCost set the preconditioner of the logistic
// head (solvers.LogisticOptions.Precondition, see preconditionStride).
const (
	hessianRowsPerDim = 5
	hessianCost       = 8
)

// preconditionStride returns the Precondition of the logistic head on n
// rows of D features: L-BFGS starts from the Hessian at the start point on
// every k-th row, k = max(warmStride, ⌈(D+1)/hessianCost⌉), so that its m =
// ⌈n/k⌉ rows cost m·(D+1)²/2 ≤ (hessianCost/2)·n·(D+1) multiply-adds, two
// evaluations of the objective (2·n·(D+1) each); and only when m ≥
// hessianRowsPerDim·(D+1) rows make a useful estimate, else 0 (plain
// L-BFGS: at D = 100 below n ≈ 6600, at D = 1000 below n ≈ 6.3·10⁵).
// On BenchmarkFit's problem (D = 100, k = 13) the full solve then takes
// 12 evaluations instead of 22 at n = 1e4, and 6 instead of 18 at 1e5
// after the warm start (itself 7 instead of 14), with the same objective
// to 12 digits and the same held-out error.
func preconditionStride(n, D int) int {
	dim := D + 1
	k := max(warmStride, (dim+hessianCost-1)/hessianCost)
	if m := (n + k - 1) / k; m < hessianRowsPerDim*dim {
		return 0
	}
	return k
}

// LogisticHead is the binary logistic read-out of Fit on the n×D features
// z (row-major) with ±1 targets t, optional row weights w (nil: none) and
// L2 penalty λ: L-BFGS with memory 40 (logisticMemory), preconditioned by
// a sampled Hessian (preconditionStride; weighted rows as the objective
// weighs them) and, unweighted, from warmStride·warmRows rows on started
// from the solution on every warmStride-th row. It returns the weights, the intercept and the
// objective. Code that fits the same head outside Fit (a λ path over fixed
// features, as bench/cmd/mfga-adult) calls it to get Fit's bits.
func LogisticHead(z []float64, n, D int, t, w []float64, lambda float64) (coef []float64, bias, obj float64, err error) {
	var info solvers.Result
	opt := solvers.LogisticOptions{Info: &info, Memory: logisticMemory, Precondition: preconditionStride(n, D)}
	if w == nil {
		if n >= warmStride*warmRows {
			if opt.Init, err = warmStart(z, n, D, t, lambda); err != nil {
				return nil, 0, 0, err
			}
		}
		coef, bias, err = solvers.Logistic(z, n, D, t, lambda, opt)
	} else {
		coef, bias, err = solvers.LogisticWeighted(z, n, D, t, w, lambda, opt)
	}
	return coef, bias, info.F, err
}

// warmStart returns the logistic solution (weights, then bias) on the rows
// 0, warmStride, 2·warmStride, … of the n×D features z, preconditioned as
// the full solve.
func warmStart(z []float64, n, D int, t []float64, lambda float64) ([]float64, error) {
	m := (n + warmStride - 1) / warmStride
	zs, ts := make([]float64, 0, m*D), make([]float64, 0, m)
	for i := 0; i < n; i += warmStride {
		zs = append(zs, z[i*D:(i+1)*D]...)
		ts = append(ts, t[i])
	}
	w, b, err := solvers.Logistic(zs, m, D, ts, lambda, solvers.LogisticOptions{Memory: logisticMemory, GradTol: 1e-5, Precondition: preconditionStride(m, D)})
	if err != nil {
		return nil, err
	}
	return append(w, b), nil
}
