package kit

import (
	"github.com/rfkit/rfkit/learners"

	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// Setting is one candidate of a default fit's search: it sets the
// searched fields of a Config (a learner's searched fields are the ones
// left at zero by the caller).
type Setting[C any] func(*C)

// SearchFit is the default Fit every batch learner shares: it compares
// the candidate settings on held-out training rows, fits the best on
// every row, and calibrates a classifier's probabilities on the same
// held-out rows.
//
// The rows are split once, seeded by seed: a stratified half for a
// classification task (see dataset.StratifiedSplit), a random half for
// Regression. Each candidate (cfg without its progress report, sub, with
// the setting applied) is fitted on one half and scored on the other: by
// its log loss after a temperature fitted on the same held-out scores for
// a classifier (learners/internal/calib, at most calib.MaxEvals passes
// over them: σ(a·s) with Platt's targets for a binary model, softmax(a·s)
// for a multiclass one, a ≥ minSlope, no intercept, so that the most
// probable class is always the predicted one), by RMSE for regression. The best
// (the first on a tie; a candidate whose fit fails is skipped) is fitted
// on every row with cfg, and, when calibrate is true and the model is a
// classifier, its held-out temperature is stored in the model
// (Common.Calib); the model's FitStats is the held-out check of the best
// candidate against the trivial predictor.
//
// Cost: one fit on every row plus one on half of them per candidate (for
// a learner linear in the rows, 1 + len(cands)/2 fits). With at most one
// candidate and calibrate false, it is one plain fit of cfg (with the
// setting). When the data are too small for the split (fewer than
// minCalibrationRows rows in a half, a class with fewer than two rows)
// or every candidate fails, the first candidate is fitted on every row,
// uncalibrated. A cancelled ctx is an error.
func SearchFit[C any, M learners.Model](ctx context.Context, name string, task learners.Task, X featmap.Matrix, y, w []float64,
	cfg, sub C, cands []Setting[C], calibrate bool, seed uint64,
	fit func(ctx context.Context, X featmap.Matrix, y, w []float64, cfg C) (M, error)) (M, error) {
	if len(cands) == 0 {
		cands = []Setting[C]{func(*C) {}}
	}
	// Weights are relative: the held-out losses and the calibration see
	// them scaled to mean 1 (equal weights: none), as every fit does.
	if w != nil && CheckWeights(w, X.Rows) == nil {
		w = RelativeWeights(w)
	}
	with := func(c C, s Setting[C]) C {
		s(&c)
		return c
	}
	if len(cands) == 1 && (!calibrate || task == learners.Regression) {
		return fit(ctx, X, y, w, with(cfg, cands[0]))
	}
	var first M
	if len(cands) == 1 {
		// the fit on every row first: it reports bad data with its own
		// errors before any split
		var err error
		if first, err = fit(ctx, X, y, w, with(cfg, cands[0])); err != nil {
			return first, err
		}
	} else if CheckShape(X, 0) != nil || len(y) != X.Rows || (w != nil && len(w) != X.Rows) || ctx.Err() != nil {
		return fit(ctx, X, y, w, with(cfg, cands[0])) // its error
	}
	train, test := holdout(task, y, seed)
	if len(test) < minCalibrationRows || len(train) < minCalibrationRows {
		if len(cands) == 1 {
			return first, nil
		}
		return fit(ctx, X, y, w, with(cfg, cands[0]))
	}
	Xt, yt, wt := learners.Rows(X, train), vec.Pick(y, train), vec.Pick(w, train)
	large := X.Rows*X.Cols >= largeSearch
	best, bestLoss := -1, math.Inf(1)
	var bestCal []float64
	var bestStats learners.FitStats
	for k, s := range cands {
		hm, err := fit(ctx, Xt, yt, wt, with(sub, s))
		if err != nil {
			if ctx.Err() != nil {
				var zero M
				return zero, fmt.Errorf("%s: %w", name, ctx.Err())
			}
			continue
		}
		cal, loss, st := heldOut(hm, X, y, w, train, test)
		if loss < bestLoss || best < 0 {
			best, bestLoss, bestCal, bestStats = k, loss, cal, st
		}
		if large {
			// each candidate's model and scratch are garbage before
			// the next is fitted: collect them now, so that the peak
			// memory of the search is that of one fit, not of the
			// candidates piled up until the collector's next cycle
			runtime.GC()
		}
	}
	Xt, yt, wt = featmap.Matrix{}, nil, nil // the half's copy is not needed by the final fit
	if large {
		runtime.GC()
	}
	if best < 0 && len(cands) == 1 {
		return first, nil
	}
	if best < 0 {
		return fit(ctx, X, y, w, with(cfg, cands[0]))
	}
	m := first
	if len(cands) > 1 {
		var err error
		if m, err = fit(ctx, X, y, w, with(cfg, cands[best])); err != nil {
			return m, err
		}
	}
	if cm, ok := any(m).(calibrated); ok {
		if !calibrate || m.Task() == learners.Regression {
			bestCal = nil
		}
		bestStats.Candidates = len(cands)
		cm.setCalibration(bestCal, bestStats)
	}
	return m, nil
}

// largeSearch is the size of the data (rows × inputs) from which SearchFit
// collects the garbage of each candidate before fitting the next (2²⁰
// values: 8 MB; a collection costs about a millisecond per 100 MB of live
// heap, far less than a fit of that size).
const largeSearch = 1 << 20

// holdout splits the rows for SearchFit: the held-out half of a
// classification task is stratified by class.
func holdout(task learners.Task, y []float64, seed uint64) (train, test []int) {
	seed ^= 0xca11b
	if task != learners.Regression {
		return dataset.StratifiedSplit(y, calibrationHoldout, seed)
	}
	n := len(y)
	perm := rand.New(rand.NewPCG(seed, 0x686f6c64)).Perm(n) // "hold"
	k := int(math.Round(calibrationHoldout * float64(n)))
	test, train = slices.Clone(perm[:k]), slices.Clone(perm[k:])
	slices.Sort(test)
	slices.Sort(train)
	return train, test
}

// heldOut scores hm, fitted on the train rows, on the test rows: for a
// classifier the fitted temperature, its log loss and the accuracy check;
// for regression no calibration, the RMSE and its check.
func heldOut[M learners.Model](hm M, X featmap.Matrix, y, w []float64, train, test []int) ([]float64, float64, learners.FitStats) {
	wt := vec.Pick(w, test)
	if hm.Task() == learners.Regression {
		st := regressionCheck(hm, X, y, w, train, test)
		return nil, st.HeldOut, st
	}
	st := heldOutCheck(hm, X, y, w, train, test)
	if cl, ok := any(hm).(interface{ Classes() []float64 }); ok && hm.Task() == learners.Binary && len(cl.Classes()) == 2 {
		cal, loss := binaryCalibration(hm, X, y, wt, test)
		return cal, loss, st
	}
	cal, loss := softmaxCalibration(hm, X, y, wt, test)
	return cal, loss, st
}

// regressionCheck is the RMSE of hm on the test rows against the mean
// target of the train rows (weighted by w when not nil); a prediction
// that is not finite makes it +Inf.
func regressionCheck[M learners.Model](hm M, X featmap.Matrix, y, w []float64, train, test []int) learners.FitStats {
	wt := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	var mean, sw float64
	// every product rounded on its own (no fused multiply-add): the
	// choice among candidates is the same on every architecture
	for _, i := range train {
		mean += float64(wt(i) * y[i])
		sw += wt(i)
	}
	mean /= sw
	var se, sb, total float64
	for _, i := range test {
		v := wt(i)
		r, b := hm.Predict(X.Row(i))-y[i], mean-y[i]
		se += float64(v * float64(r*r))
		sb += float64(v * float64(b*b))
		total += v
	}
	if !(total > 0) {
		return learners.FitStats{}
	}
	st := learners.FitStats{HeldOutRows: len(test), Metric: "RMSE", HeldOut: math.Sqrt(se / total), Baseline: math.Sqrt(sb / total)}
	if math.IsNaN(st.HeldOut) {
		st.HeldOut = math.Inf(1)
	}
	st.BelowBaseline = st.HeldOut > st.Baseline
	return st
}

// GammaFactors are the multiples of a learner's default kernel bandwidth
// γ that its default fit compares (SearchFit) when Gamma is left at zero:
// the default first, then a quarter and four times it. On the binary
// panel sets (standardised inputs, γ = 1/d) neither alternative is better
// on average, but each wins on some sets by several points.
var GammaFactors = []float64{1, 0.25, 4}

// Grid returns the settings of every combination of one option per
// field: options[f] are field f's settings, its default first (an empty
// list leaves the field alone). The first setting returned applies every
// field's first option, the defaults.
func Grid[C any](options ...[]Setting[C]) []Setting[C] {
	out := []Setting[C]{func(*C) {}}
	for _, opts := range options {
		if len(opts) == 0 {
			continue
		}
		next := make([]Setting[C], 0, len(out)*len(opts))
		for _, o := range opts {
			for _, s := range out {
				next = append(next, func(c *C) { s(c); o(c) })
			}
		}
		out = next
	}
	return out
}

// Options returns one setting per value, each calling set with it: the
// settings of one field for Grid. The first value should be the field's
// default.
func Options[C any, V any](set func(*C, V), values ...V) []Setting[C] {
	out := make([]Setting[C], len(values))
	for i, v := range values {
		out[i] = func(c *C) { set(c, v) }
	}
	return out
}

// ScaleOptions are the settings of one float field for Grid: none when v,
// the caller's value, is set (not 0), else def times each factor, the
// first factor being 1, the default, left at 0 so that it resolves as it
// would without a search.
func ScaleOptions[C any](v, def float64, set func(*C, float64), factors ...float64) []Setting[C] {
	if v != 0 {
		return nil
	}
	return Options(func(c *C, f float64) {
		if f != 1 {
			set(c, float64(f*def))
		}
	}, factors...)
}

// GammaOptions are ScaleOptions of a bandwidth γ whose default is 1/d
// (d > 0 inputs), by GammaFactors.
func GammaOptions[C any](gamma float64, d int, set func(*C, float64)) []Setting[C] {
	if d <= 0 {
		return nil
	}
	return ScaleOptions(gamma, 1/float64(d), set, GammaFactors...)
}
