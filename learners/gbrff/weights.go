package gbrff

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/exploss"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
)

// FitWeighted is Fit with a weight per row (w == nil: Fit). The weights
// are relative (kit.RelativeWeights): c_i is w_i scaled to mean 1
// over the rows, so k·w fits the model of w for any k > 0 and equal
// weights the model of Fit. A weight of 0 drops the row; all-zero,
// negative or non-finite weights are errors. The inputs are standardised
// with the weighted statistics (kit.PrepareWeighted).
//
// Binary: the boosting weights start from the sample weights,
// w_i = c_i·exp(−y_i H(x_i)) (so Σw, the correlation and α are those of
// the data with row i repeated c_i times, for integer c_i), and H⁰ = ½ ln(Σ_{y=+1} c /
// Σ_{y=−1} c). The phase and frequency steps minimise the paper's
// surrogate Σ exp(−ỹ_i h_i), ỹ_i = y_i w_i, which is not linear in w_i: a
// weight of 2 and a duplicated row give the same first round up to that
// surrogate's second-order term, not the same bits. Early stopping
// (Validation > 0) is not available with weights yet. Calibration uses
// weighted folds and a weighted log loss.
//
// Regression: the weights multiply every row's loss (the weighted mean of
// the targets for H⁰, weighted sums in α and in the early-stopping loss)
// and scale the targets ỹ of the phase and frequency steps
// (ỹ_i = (c_i/c̄)·g_i/(1000·rms)), where the surrogate is linear to 1e-3:
// a weight of 2 acts as a duplicated row to about 1e-3 of the predictions.
func FitWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	if w != nil {
		// relative weights for the calibration too, not only the fit
		if err := kit.CheckWeights(w, X.Rows); err != nil {
			return nil, fmt.Errorf("gbrff: %w", err)
		}
		w = kit.RelativeWeights(w)
	}
	switch {
	case w == nil:
		return Fit(ctx, X, y, cfg)
	case cfg.Task == learners.Regression:
		return fitRegression(ctx, X, y, w, cfg)
	case cfg.Task == learners.Multiclass:
		return fitMulticlass(ctx, X, y, w, cfg)
	}
	m, err := fitBinaryWeighted(ctx, X, y, w, cfg)
	if err != nil || cfg.Calibration == CalibrationNone {
		return m, err
	}
	return calibrate(ctx, m, X, y, w, cfg, X.Rows, nil)
}

// prepareNoValidation is kit.PrepareWeighted for the fits that have no
// early stopping yet (what names them in the error): Validation > 0 is an
// error.
func prepareNoValidation(ctx context.Context, cfg Config, task learners.Task, X featmap.Matrix, y, w []float64, what string) (*kit.Prepared, error) {
	p, err := kit.PrepareWeighted(ctx, "gbrff", cfg, task, X, y, w)
	if err != nil {
		return nil, err
	}
	if cfg.Validation > 0 {
		return nil, fmt.Errorf("gbrff: Validation (early stopping) %s is not implemented yet", what)
	}
	return p, nil
}

func fitBinaryWeighted(ctx context.Context, X featmap.Matrix, y, w []float64, cfg Config) (*Model, error) {
	p, err := prepareNoValidation(ctx, cfg, learners.Binary, X, y, w, "with sample weights")
	if err != nil {
		return nil, err
	}
	progress, stats, threads := cfg.Progress, cfg.Stats, int(cfg.Threads)
	c := cfg.resolved(X.Cols)
	n, d := p.N, p.D
	z, mean, scale := p.Z, p.Mean, p.Scale
	enc, raw, err := encodeWeighted(c, X, p, threads)
	if err != nil {
		return nil, err
	}
	if enc != nil {
		d, z, mean, scale = enc.inputs(), enc.z, enc.mean, enc.scale
	}
	x, err := exploss.NewData(z, n, d, d)
	if err != nil {
		return nil, fmt.Errorf("gbrff: %w", err)
	}
	f := &fitter{c: c, d: d, mean: mean, scale: scale, x: x, raw: raw,
		y: p.Targets, yt: make([]float64, n), H: make([]float64, n)}
	f.st.InputCopies = 2
	if enc != nil {
		f.enc = &enc.encoding
		f.st.InputCopies += 2
	}
	var sp, sn float64
	for i, v := range f.y {
		if v > 0 {
			sp += p.Weights[i]
		} else {
			sn += p.Weights[i]
		}
	}
	if sp == 0 || sn == 0 {
		return nil, errors.New("gbrff: one class has weight 0 on every row")
	}
	f.h0 = 0.5 * xmath.Log(sp/sn)
	// exp(−y(H − y ln c)) = c·exp(−yH): f.H carries the offset −y·ln c,
	// which only the weight update reads; the model's H⁰ and terms do not.
	for i := range f.H {
		f.H[i] = f.h0 - float64(f.y[i]*xmath.Log(p.Weights[i]))
	}
	if err := f.binaryVectors(); err != nil {
		return nil, err
	}
	if err := f.setupRounds(); err != nil {
		return nil, err
	}
	if f.ph != nil {
		f.ph.SetThreads(threads)
	}
	f.threads = threads
	f.x.SetThreads(threads)
	start := time.Now()
	for t := 0; t < c.T; t++ {
		if err := ctxRound(ctx, t, c.T); err != nil {
			return nil, err
		}
		if err := f.runRound(t, f.round1, f.round2, progress, start, f.meanWeight); err != nil {
			return nil, err
		}
	}
	if stats != nil {
		f.st.LBFGSIters = f.opt.iters
		*stats = f.st
	}
	return f.model(c.T, p.Labels), nil
}

// weightedEncoding is an encoding chosen for a weighted fit with the
// standardised encoded inputs of the rows kept (z).
type weightedEncoding struct {
	encoding
	z []float64
}

// encodeWeighted is encodeInputs for a weighted fit on the rows p kept:
// the encoding chosen on them (nil when c.Inputs is raw or every input is
// kept as it is), with their standardised encoded inputs, and the raw
// inputs' standardisation (p's).
func encodeWeighted(c Config, X featmap.Matrix, p *kit.Prepared, threads int) (*weightedEncoding, *dataset.Scaler, error) {
	if c.Inputs != InputsAuto {
		return nil, nil, nil
	}
	rows := p.Kept
	if rows == nil {
		rows = allRows(X.Rows)
	}
	enc := chooseEncoding(X, rows, p.Mean, p.Scale)
	if enc == nil {
		return nil, nil, nil
	}
	mean, scale, z, err := learners.Standardize(enc.encodeRows(learners.Rows(X, rows), p.Mean, p.Scale, threads))
	if err != nil {
		return nil, nil, fmt.Errorf("gbrff: %w", err)
	}
	enc.mean, enc.scale = mean, scale
	return &weightedEncoding{encoding: *enc, z: z}, &dataset.Scaler{Mean: p.Mean, Scale: p.Scale}, nil
}
