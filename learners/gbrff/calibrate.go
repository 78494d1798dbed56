package gbrff

import (
	"context"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/calib"
	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/par"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// The probability calibrations of a binary model (Config.Calibration).
const (
	// CalibrationAuto, the default ("" means it), chooses by the data: a
	// temperature fitted on the early-stopping rows' scores when
	// Validation > 0 (no extra fit); else, below calibrationLinkRows
	// training rows, a temperature fitted on out-of-fold scores of
	// calibrationAutoFolds folds whose models run autoFoldRounds rounds;
	// else none, the exponential loss's link. Measured on the 16 binary
	// sets (bench/results/gbrff-calibration.md): at 10⁴ rows and more the
	// link is as good as the 5-fold temperature; below, the 2 folds of a
	// quarter of the rounds give the mean test log loss of 2 folds of half
	// the rounds at about half their cost.
	CalibrationAuto = "auto"
	// CalibrationCV is a temperature (Platt scaling without intercept)
	// fitted on out-of-fold scores of calibrationFolds stratified folds,
	// each fold model fitted with the same Config but the final model's
	// rounds scaled to its share of the rows (foldRounds), the model
	// itself fitted on every row: about 3.2 fits of the model more.
	CalibrationCV = "cv"
	// CalibrationNone keeps the exponential loss's link 1/(1 + e^{−2H}).
	CalibrationNone = "none"
)

// calibrationFolds is the number of folds of CalibrationCV (5,
// scikit-learn's CalibratedClassifierCV default). Measured on heart,
// australian and pima (bench/results/gbrff-calibration.md), 3, 5 and 10
// folds with scaled rounds give test log losses within 0.004 of each
// other; 5 costs about 3.2 fits of the model, 10 about 8.1.
const calibrationFolds = 5

// calibrationAutoFolds is the number of folds of CalibrationAuto below
// calibrationLinkRows training rows: 2 fold models of autoFoldRounds
// rounds on half the rows.
const calibrationAutoFolds = 2

// autoFoldRounds is the number of rounds of CalibrationAuto's fold models:
// a quarter of the final model's, at least 1. Below 10⁴ rows a round's
// cost hardly depends on the rows, so 2 fold models of half the rounds
// cost about 0.85 of the model itself; a quarter halves that. Measured on the 14 binary sets below 10⁴ rows (5 splits, 300
// rounds): mean test log loss 0.2691 for a quarter and for half the
// rounds, 0.2656 for a third (more than 1.5 fits of the model in all),
// 0.2850 for a sixth; fewer L-BFGS iterations per round instead of fewer
// rounds saved less and lost more (0.3224 with one).
func autoFoldRounds(rounds int) int {
	return max(1, (rounds+2)/4)
}

// calibrationLinkRows is the number of training rows from which
// CalibrationAuto (without Validation) keeps the exponential loss's link:
// with this many rows per 100 rounds the boosted scores are not
// over-confident (occupancy, bankmarketing: the link's test log loss is at
// or below the 5-fold temperature's), and out-of-fold fits would cost a
// fit of the model or more.
const calibrationLinkRows = 10_000

// foldRounds is the number of boosting rounds of a CalibrationCV fold
// model: the final model's rounds (after early stopping) times the fold's share
// of the final model's training rows, (k − 1)/k over 1 − Validation,
// rounded, at least 1 and at most the final rounds.
//
// Why scaled: the margins of exponential-loss boosting grow with the
// rounds faster on fewer rows, so folds fitted with the final model's T
// on (k − 1)/k of the rows give out-of-fold scores on a larger scale than
// the final model's scores on new rows, and the temperature fitted on them
// is too small: the probabilities come out under-confident (the S shape of
// the reliability diagram). On heart (70 % training splits, T = 100, 3
// folds) the standard deviation of the out-of-fold scores was 8.3 against
// 6.1 for the final model's test scores, and the temperature 0.19 against
// 0.30 fitted on the test scores themselves; with the rounds scaled, 6.0
// and 0.27.
func foldRounds(rounds, k int, validation float64) int {
	share := float64(k-1) / float64(k) / (1 - validation)
	r := int(math.Round(float64(rounds) * math.Min(share, 1)))
	return max(1, min(r, rounds))
}

// calibrate returns m, fitted on the rows of (X, y) with row weights w
// (nil: none) and cfg, with the temperature of cfg.Calibration's recipe
// (CalibrationAuto, CalibrationCV), or m itself when the recipe keeps the
// link. val are the rows Fit held out for early stopping (nil: none);
// nTrain is the number of rows the model was fitted on. When the data
// cannot make the folds (a class with fewer rows than folds) or a fold's
// fit fails for lack of rows, m is returned uncalibrated
// (Model.Calibration reports it); a cancelled ctx is an error. The work is
// added to *cfg.Stats (FitStats' Calib fields) when cfg.Stats is not nil.
func calibrate(ctx context.Context, m *Model, X featmap.Matrix, y, w []float64, cfg Config, nTrain int, val []int) (*Model, error) {
	if cfg.Calibration != CalibrationCV && len(val) == 0 && nTrain >= calibrationLinkRows {
		return m, nil // the link, before the n labels are encoded
	}
	signs := make([]float64, len(y))
	var err error
	for i, v := range y {
		if signs[i], err = kit.EncodeLabel(m.Labels(), v); err != nil {
			return nil, fmt.Errorf("gbrff: %w", err)
		}
	}
	var st FitStats
	var scores, labels, weights []float64
	switch {
	case cfg.Calibration == CalibrationCV:
		scores, err = outOfFold(ctx, m, X, y, w, signs, cfg, calibrationFolds, foldRounds(m.Rounds(), calibrationFolds, m.Body().cfg.Validation), &st)
		labels, weights = signs, w
	case len(val) > 0:
		// the early-stopping rows: out of sample for the final model
		scores, labels, weights = make([]float64, len(val)), vec.Pick(signs, val), vec.Pick(w, val)
		if err := scoreRows(ctx, m, X, val, scores); err != nil {
			return nil, fmt.Errorf("gbrff: calibration: %w", err)
		}
		st.CalibScored = len(val)
	default: // below calibrationLinkRows (from it: the link, returned above)
		scores, err = outOfFold(ctx, m, X, y, w, signs, cfg, calibrationAutoFolds, autoFoldRounds(m.Rounds()), &st)
		labels, weights = signs, w
	}
	if err != nil {
		return nil, err
	}
	if scores == nil {
		return m, nil // the data cannot make the folds
	}
	a, evals, err := temperatureCtx(ctx, scores, labels, weights)
	if err != nil {
		return nil, fmt.Errorf("gbrff: calibration: %w", err)
	}
	if s := cfg.Stats; s != nil {
		st.CalibEvals = evals
		s.CalibFits, s.CalibRounds, s.CalibPasses = st.CalibFits, st.CalibRounds, st.CalibPasses
		s.CalibScored, s.CalibEvals = st.CalibScored, st.CalibEvals
	}
	body := *m.Body()
	body.temp = []float64{a}
	mean, scale := m.Standardization()
	return newModel(&body, m.Labels(), mean, scale), nil
}

// outOfFold returns the out-of-fold scores of k stratified folds of the
// rows, each fold model fitted with cfg but the given rounds and no early
// stopping, and counts the work in st; nil scores and a nil error when
// the data cannot make the folds or a fold cannot be fitted. The folds
// run side by side on up to cfg.Threads goroutines (par.Each; each fold's
// sweeps get an equal share of the limit): fold models below
// calibrationLinkRows rows sweep one or two chunks, so their rounds hardly
// split over cores, while whole fold fits do. The scores are the same bits
// for any Threads.
func outOfFold(ctx context.Context, m *Model, X featmap.Matrix, y, w, signs []float64, cfg Config, k, rounds int, st *FitStats) ([]float64, error) {
	c := m.Body().cfg
	folds, err := dataset.StratifiedKFold(signs, k, c.Seed^0xca1b)
	if err != nil {
		return nil, nil
	}
	workers := par.Workers(int(cfg.Threads), len(folds))
	sub := cfg
	sub.Calibration, sub.Progress = CalibrationNone, nil
	// the fold models run a fixed number of rounds without early stopping
	// of their own
	sub.T, sub.Validation = rounds, 0
	sub.Threads = learners.Threads(max(1, par.Workers(int(cfg.Threads), 1<<30)/workers))
	scores := make([]float64, len(y))
	type foldResult struct {
		st  FitStats
		err error // the fit's; nil when it and the scoring succeeded
		ok  bool
	}
	res := make([]foldResult, len(folds))
	par.Each(int(cfg.Threads), len(folds), false, func() struct{} { return struct{}{} }, nil, func(f int, _ struct{}) {
		r := &res[f]
		test := folds[f]
		train := dataset.TrainIndices(folds, f)
		fc := sub
		fc.Stats = &r.st
		fm, err := FitWeighted(ctx, learners.Rows(X, train), vec.Pick(y, train), vec.Pick(w, train), fc)
		if err != nil {
			r.err = err
			return
		}
		fold := make([]float64, len(test))
		if err := scoreRows(ctx, fm, X, test, fold); err != nil {
			r.err = err
			r.ok = true // fitted: the error is the scoring's (a cancelled ctx)
			return
		}
		for j, i := range test {
			scores[i] = fold[j] // each fold writes only its own test rows
		}
		r.ok = true
	})
	for f, r := range res {
		switch {
		case r.err != nil && (r.ok || ctx.Err() != nil):
			if ctx.Err() != nil {
				return nil, fmt.Errorf("gbrff: calibration fold %d: %w", f+1, ctx.Err())
			}
			return nil, fmt.Errorf("gbrff: calibration fold %d: %w", f+1, r.err)
		case r.err != nil:
			return nil, nil // a fold that cannot be fitted: no calibration
		}
		st.CalibFits++
		st.CalibRounds += r.st.Rounds
		st.CalibPasses += r.st.Passes
		st.CalibScored += len(folds[f])
	}
	return scores, nil
}

// scoreBlock is the number of rows scoreRows scores between two checks of
// its context: a row costs a term per round (300 rounds of 100 inputs:
// about 30 µs), so a block takes milliseconds.
const scoreBlock = 256

// scoreRows sets dst[k] to m's score of row rows[k] of X, and returns ctx's
// error, checked before every scoreBlock rows, once ctx is cancelled (the
// early-stopping rows of a large fit take seconds to score).
func scoreRows(ctx context.Context, m *Model, X featmap.Matrix, rows []int, dst []float64) error {
	for k, i := range rows {
		if k%scoreBlock == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		dst[k] = m.Score(X.Row(i))
	}
	return nil
}

// temperatureCtx is temperature checking ctx before every loss
// evaluation but the first (each a pass over the scores).
func temperatureCtx(ctx context.Context, s, y, w []float64) (a float64, evals int, err error) {
	r, err := calib.Temperature(s, y, w, calib.Options{Start: temperatureStart(s, w), PlattTargets: true, Ctx: ctx})
	if err != nil {
		return 0, 0, err
	}
	return math.Max(r.A, 1e-3), r.Evals, nil
}

// temperature fits p = 1/(1 + exp(−a·s)) to the labels y (±1) of the
// scores s, with row weights w (nil: all 1), by log loss with Platt's
// targets (N₊ + 1)/(N₊ + 2) and 1/(N₋ + 2) (Platt 1999), from
// temperatureStart: calib.Temperature, at most calib.MaxEvals loss
// evaluations, which it returns. A temperature and not Platt's intercept:
// p ≥ ½ exactly when s ≥ 0, so Probability agrees with Predict. Scores
// that do not rank the classes at all would give a ≤ 0; a small positive
// floor keeps p ≥ ½ ⇔ s ≥ 0.
func temperature(s, y, w []float64) (a float64, evals int, err error) {
	return temperatureCtx(context.Background(), s, y, w)
}

// temperatureStart is the Newton fit's starting slope: the link's 2, or
// 1/rms(s) (w-weighted root mean square) when that is smaller, so that the
// start's a·s are of order 1. From 2 on scores of a large scale (300
// rounds at learning rate 1 on 189 rows: out-of-fold scores of s.d. 16 to
// 20 on heart) the loss is saturated, its Hessian nearly 0, and the
// Newton steps overshoot: 20 evaluations ended at a = 1.24 (test log loss
// 2.6, where the best temperature gives 0.43) or at a negative slope;
// from 1/rms the same fits converge in 4 or 5.
func temperatureStart(s, w []float64) float64 {
	var ss, sw float64
	for i, v := range s {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		ss += float64(wi * float64(v*v))
		sw += wi
	}
	if !(ss > 0) || !(sw > 0) {
		return 2
	}
	rms := math.Sqrt(ss / sw)
	if !xmath.Finite(rms) || 1/rms >= 2 {
		return 2
	}
	return 1 / rms
}

// Calibration returns the temperature a of a calibrated binary model,
// whose Probability is 1/(1 + exp(−a·Score(x))); ok is false for a model
// without one (CalibrationNone, CalibrationAuto from calibrationLinkRows
// training rows without Validation, regression, a file older than version
// 3, or data too small for the folds), whose Probability is
// 1/(1 + exp(−2·Score(x))), the exponential loss's link.
func (m *Model) Calibration() (a float64, ok bool) {
	t := m.Body().temp
	if len(t) != 1 {
		return 0, false
	}
	return t[0], true
}

// Calibrated implements kit.Calibrator: the calibrated probability of
// the score s when the model has a temperature.
func (m *body) Calibrated(s float64) (float64, bool) {
	if len(m.temp) != 1 {
		return 0, false
	}
	return 1 / (1 + xmath.Exp(-float64(m.temp[0]*s))), true
}
