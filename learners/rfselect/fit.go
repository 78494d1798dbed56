package rfselect

import (
	"context"
	"math"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// rounds is the number of progress events of a Fit: selection, features, solve.
const rounds = 3

// Fit trains a model on the rows of X (n×d) and the labels or targets y
// (len n): standardise, select M of M₀ candidate features by cfg.Selection
// (with the ±1 labels or the targets, centred to mean 0, as y; for
// Multiclass, the K class indicators 1[y = k], each centred, whose
// energies add), then fit the linear model (multinomial logistic
// regression for Multiclass). Binary labels may be any two distinct values
// (the smaller maps to −1), multiclass ones 3..modelfile.MaxClasses finite
// values; Predict returns them.
//
// Errors: kit.PrepareWeighted's, a failing solver, or an error
// returned by cfg.Progress (wrapped). The result depends only on the data
// and cfg, not on GOMAXPROCS. Memory: 256×M₀ for the scores, n×M for the
// features. ctx is checked between rounds.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	return FitWeighted(ctx, X, y, nil, cfg)
}

// FitWeighted is Fit with a weight per row (w == nil: none; their rules
// and errors are learners.Method.FitWeighted's and PrepareWeighted's): the
// weights enter the standardisation, the selection (the energies, and the
// mean the targets are centred on) and the loss as weighted means.
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// γ × {1, ¼, 4} when Gamma is 0 (kit.GammaOptions) on a held-out half
// of the rows and fits the best on every row; a classifier's probabilities
// are calibrated on the same half unless Calibrate is Disabled. Cost: one
// fit on every row plus one on half the rows per candidate (about 1 +
// candidates/2 fits).
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, "rfselect", cfg.Task, X, y, w, cfg, sub, candidates(cfg, X.Cols), kit.On(cfg.Calibrate, cfg.Task != learners.Multiclass), cfg.Seed, fitWeighted)
}

// candidates are the settings the default fit compares on held-out rows
// (kit.SearchFit): γ by kit.GammaOptions when Gamma is 0.
func candidates(cfg Config, d int) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) {
		return nil
	}
	return kit.Grid(kit.GammaOptions(cfg.Gamma, d, func(c *Config, g float64) { c.Gamma = g }))
}

// fitWeighted is FitWeighted without the calibration.
func fitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	p, err := kit.PrepareWeighted(ctx, "rfselect", cfg, cfg.Task, X, y, w)
	if err != nil {
		return nil, err
	}
	c := cfg.resolve(p.D)
	r := kit.NewRounds(ctx, cfg.Progress, "rfselect", string(c.Selection), rounds)
	if err := p.CheckSize("rfselect", c.Features); err != nil {
		return nil, err
	}
	b := &body{cfg: c}
	Xs := featmap.Dense(p.N, p.D, p.Z)

	// Round 1: select. The score target is centred for both tasks: the
	// linear model has an unpenalised intercept, so what a feature can add
	// is its covariance with y; with uncentred labels the score
	// ȳ·mean(φ) + cov(y, φ) ranks near-constant features first when the
	// classes are imbalanced (see the package doc).
	st, K := selectionTargets(p)
	if c.Selection == LKRFSelection {
		b.RFF, err = lkrf(Xs, st, K, c.Candidates, c.Features, c.Gamma, c.Rho, c.Seed)
	} else {
		b.RFF, err = eerf(Xs, st, K, c.Candidates, c.Features, c.Gamma, c.Seed)
	}
	if err != nil {
		return nil, err
	}
	if err := r.End(1, math.NaN()); err != nil {
		return nil, err
	}

	// Round 2: the features.
	z, err := linrf.Features("rfselect", p, b.RFF, cfg.Threads)
	if err != nil {
		return nil, err
	}
	if err := r.End(2, math.NaN()); err != nil {
		return nil, err
	}

	// Round 3: the linear model.
	loss, err := b.FitReadout("rfselect", z, p, c.Loss, c.Lambda, nil)
	if err != nil {
		return nil, err
	}
	if err := r.End(3, loss); err != nil {
		return nil, err
	}
	return kit.New[Model](p.Common(c.Task, linrf.Link(c.Loss)), b), nil
}
