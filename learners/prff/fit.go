package prff

import (
	"context"
	"time"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// Fit trains a model on the rows of X (n×d) and the labels or targets y
// (len n): it standardises X, learns a PRFF map on the standardised rows
// (Learn) and fits the linear model cfg.Loss on its features. Binary labels
// may be any two distinct values (the smaller maps to −1); Predict returns
// them.
//
// Multiclass labels may be any 3..modelfile.MaxClasses finite values (the
// read-out is then multinomial logistic regression).
//
// Errors: a cancelled ctx, an invalid cfg, empty or ragged data, NaN (unless
// cfg.Missing imputes) or ±Inf in X or y, a binary y without exactly two
// classes, a multiclass y with fewer than three or too many, a failing bandwidth
// rule (set Gamma) or solver, or an error returned by cfg.Progress
// (wrapped). The result depends only on the data and cfg, not on
// GOMAXPROCS. Memory: the n×D feature matrix, plus D×D for ridge. ctx is
// checked after each feature, not inside the solver.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	return FitWeighted(ctx, X, y, nil, cfg)
}

// FitWeighted is Fit with a weight per row (w == nil: none; then the model
// has the bits of Fit's). The weights enter the standardisation (weighted
// means and variances), the bandwidth rule (a weighted percentile of the
// pairwise distances), the Gram loss of every learned feature (the pair
// (i, l) of a mini-batch weighs w_i·w_l) and the linear model's loss (a
// weighted mean); a row of weight 0 is dropped before the shuffle. With
// Batch ≥ the number of rows kept (one mini-batch) and Gamma set, or the
// bandwidth rule's 500 rows covering the data, a weight of 2 gives the
// model of the row duplicated, up to the order of the sums; with smaller
// mini-batches the weights are exact within each batch but the batches
// differ from those of the duplicated data. Errors beside Fit's:
// len(w) != n, a negative, NaN or infinite weight, all weights 0.
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// the bandwidth rule's γ × {1, ¼, 4} when Gamma is 0 (α follows γ when
// Alpha is 0) on a held-out half of the rows and fits the best on every
// row; a classifier's probabilities are calibrated on the same half unless
// Calibrate is Disabled. Cost: one fit on every row plus one on half the
// rows per candidate (about 1 + candidates/2 fits).
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, methodName, cfg.Task, X, y, w, cfg, sub, candidates(cfg), kit.On(cfg.Calibrate, cfg.Task != learners.Multiclass), cfg.Seed, fitWeighted)
}

// candidates are the settings the default fit compares on held-out rows
// (kit.SearchFit): the γ of the bandwidth rule times each of
// kit.GammaFactors when Gamma is 0 (3 candidates; α follows γ when
// Alpha is 0).
func candidates(cfg Config) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) || cfg.Gamma != 0 {
		return nil
	}
	return kit.Options(func(c *Config, f float64) {
		if f != 1 {
			c.gammaFactor = f
		}
	}, kit.GammaFactors...)
}

// fitWeighted is FitWeighted without the calibration.
func fitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	p, err := kit.PrepareWeighted(ctx, methodName, cfg, cfg.Task, X, y, w)
	if err != nil {
		return nil, err
	}
	c := cfg.resolve()
	if err := p.CheckSize(methodName, c.Features); err != nil {
		return nil, err
	}
	b := &body{}
	b.fmap, c, err = learn(ctx, p.Z, p.Weights, p.N, p.D, c, cfg.Progress, 1, p.Start)
	if err != nil {
		return nil, err
	}
	b.cfg, b.RFF = c, b.fmap.rff
	z, err := linrf.Features(methodName, p, b.RFF, cfg.Threads)
	if err != nil {
		return nil, err
	}
	loss, err := b.FitReadout(methodName, z, p, c.Loss, c.Lambda, nil)
	if err != nil {
		return nil, err
	}
	e := learners.Event{Method: methodName, Round: c.Features + 1, Rounds: c.Features + 1, Loss: loss, Elapsed: time.Since(p.Start)}
	if err := kit.EndRound(ctx, cfg.Progress, "prff", e); err != nil {
		return nil, err
	}
	return kit.New[Model](p.Common(c.Task, linrf.Link(c.Loss)), b), nil
}
