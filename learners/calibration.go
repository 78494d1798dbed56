package learners

import (
	"context"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners/internal/calib"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// CalibratedVersion is added to a model file's version when the file
// holds a probability calibration (the array "calibration"): a file of
// version CalibratedVersion + v is a version-v model of its learner plus
// the calibration. Builds older than the calibration refuse such a file
// (its version is newer than they read) instead of silently giving the
// uncalibrated probabilities; files without a calibration keep their
// version and bytes.
const CalibratedVersion = 100

// calibrationHoldout is the share of the training rows, stratified by
// class, on which Calibrate scores the model fitted on the other rows.
// One half keeps the cost of the calibration at one fit on half the rows
// (about 1.5× the cost of the fit itself for a learner linear in n).
const calibrationHoldout = 0.5

// minCalibrationRows is the fewest held-out rows Calibrate fits a
// calibration on; with fewer the model is returned uncalibrated.
const minCalibrationRows = 20

// minSlope is the smallest calibration slope Calibrate stores: a
// positive slope keeps the calibrated probabilities in the order of the
// scores, so the most probable class is the predicted one.
const minSlope = 1e-3

// FitStats is what a Fit learned about its own fit beside the model: the
// held-out check of the calibration split (Calibrate). It is not stored
// in the model file.
type FitStats struct {
	// HeldOutRows is the number of held-out training rows the check was
	// made on (0: no check was made, the other fields are 0).
	HeldOutRows int
	// HeldOut is the accuracy, on the held-out rows, of the model fitted
	// on the other training rows.
	HeldOut float64
	// Baseline is the accuracy on the same rows of always answering the
	// majority class of the other rows (the class-prior predictor).
	Baseline float64
	// BelowBaseline is set when HeldOut < Baseline: at this data size and
	// configuration the learner is worse than the trivial predictor, and
	// its configuration should be changed.
	BelowBaseline bool
}

// String is the check as the command's summary line prints it.
func (s FitStats) String() string {
	if s.HeldOutRows == 0 {
		return ""
	}
	v := fmt.Sprintf("held-out accuracy %.4g (class prior %.4g, %d rows)", s.HeldOut, s.Baseline, s.HeldOutRows)
	if s.BelowBaseline {
		v += "; BELOW THE CLASS PRIOR: change the configuration"
	}
	return v
}

// FitStatser is implemented by every learner's model (through Base): the
// FitStats of the Fit that made it (zero for a loaded model).
type FitStatser interface {
	FitStats() FitStats
}

// FitStats returns the held-out check of the Fit that made the model
// (zero for a model loaded from a file or fitted without calibration).
func (b *Base[T, P]) FitStats() FitStats { return b.stats }

// Calibration returns the probability calibration of a classifier: a
// binary model's Probability is σ(a·Score(x) + c), a multiclass model's
// Probabilities the softmax of a times its class scores; ok is false for a
// model without one (regression, a file without a calibration, a fit with
// too few rows for it), whose probabilities are its Link's.
func (b *Base[T, P]) Calibration() (a, c float64, ok bool) {
	if len(b.c.Calib) != 2 {
		return 0, 0, false
	}
	return b.c.Calib[0], b.c.Calib[1], true
}

// calibrated is implemented by a Base: Calibrate stores its results in a
// model that Fit has not yet returned.
type calibrated interface {
	setCalibration(cal []float64, st FitStats)
	classScores(dst, x []float64)
}

func (b *Base[T, P]) setCalibration(cal []float64, st FitStats) {
	c := b.c
	c.Calib = cal
	Build(b, c, b.body)
	b.stats = st
}

// classScores writes the K class scores of the row x of a multiclass
// model into dst.
func (b *Base[T, P]) classScores(dst, x []float64) {
	s := b.pool.Get().(*scratch)
	z := s.z[:len(x)]
	b.standardize(z, x)
	b.multi.Scores(dst, z, s.w)
	b.pool.Put(s)
}

// Calibrate is the probability calibration every classifier's default Fit
// shares. m is the model fitted on every row of (X, y) with row weights w
// (nil: none); fit fits the same configuration on a subset of the rows.
// Calibrate fits the model again on a stratified half of the rows (seeded
// by seed), scores the other half, and fits on those held-out scores
// (learners/internal/calib; at most calib.MaxEvals passes over them) a
// temperature, σ(a·s) for a binary model (with Platt's targets) or
// softmax(a·s) for a multiclass one, a ≥ minSlope, so that the most
// probable class is always the predicted one (no intercept); it stores the result in m, with the held-out accuracy
// against the class prior (FitStats), and returns m. The cost is one fit
// on half the rows.
//
// A regression model is returned as it is. When the data are too small
// for the split (fewer than minCalibrationRows held-out rows, or a class
// with fewer than two rows), or the half fit fails for lack of rows or
// the calibration fit fails, m is returned uncalibrated (Calibration's ok
// is false); a cancelled ctx is an error.
func Calibrate[M Model](ctx context.Context, name string, m M, X featmap.Matrix, y, w []float64, seed uint64,
	fit func(ctx context.Context, X featmap.Matrix, y, w []float64) (M, error)) (M, error) {
	task := m.Task()
	cm, ok := any(m).(calibrated)
	if task == Regression || !ok {
		return m, nil
	}
	train, test := dataset.StratifiedSplit(y, calibrationHoldout, seed^0xca11b)
	if len(test) < minCalibrationRows || len(train) < minCalibrationRows {
		return m, nil
	}
	hm, err := fit(ctx, Rows(X, train), vec.Pick(y, train), vec.Pick(w, train))
	if err != nil {
		if ctx.Err() != nil {
			return m, fmt.Errorf("%s: calibration: %w", name, ctx.Err())
		}
		return m, nil
	}
	wt := vec.Pick(w, test)
	st := heldOutCheck(hm, X, y, w, train, test)
	var cal []float64
	if cl, ok := any(hm).(interface{ Classes() []float64 }); ok && task == Binary && len(cl.Classes()) == 2 {
		cal = binaryCalibration(hm, X, y, wt, test)
	} else {
		cal = softmaxCalibration(hm, X, y, wt, test)
	}
	cm.setCalibration(cal, st)
	return m, nil
}

// binaryCalibration fits the temperature to the held-out scores of hm; nil
// when the fit fails.
func binaryCalibration[M Model](hm M, X featmap.Matrix, y, wt []float64, test []int) []float64 {
	sc, ok := any(hm).(interface{ Score(x []float64) float64 })
	lm, ok2 := any(hm).(interface{ Labels() Labels })
	if !ok || !ok2 {
		return nil
	}
	labels := lm.Labels()
	s, t := make([]float64, len(test)), make([]float64, len(test))
	for k, i := range test {
		s[k] = sc.Score(X.Row(i))
		t[k] = -1
		if y[i] == labels.Pos {
			t[k] = 1
		}
		if !xmath.Finite(s[k]) {
			return nil
		}
	}
	r, err := calib.Temperature(s, t, wt, calib.Options{PlattTargets: true})
	if err != nil || !xmath.Finite(r.A) {
		return nil
	}
	// scores that do not rank the classes give a ≤ 0; a small positive
	// slope keeps p ≥ ½ exactly when the model predicts the larger label
	return []float64{math.Max(r.A, minSlope), 0}
}

// softmaxCalibration fits the softmax temperature to the held-out class
// scores of hm; nil when the fit fails.
func softmaxCalibration[M Model](hm M, X featmap.Matrix, y, wt []float64, test []int) []float64 {
	hc, ok := any(hm).(calibrated)
	cl, ok2 := any(hm).(interface{ Classes() []float64 })
	if !ok || !ok2 {
		return nil
	}
	classes := cl.Classes()
	K := len(classes)
	S, class := make([]float64, len(test)*K), make([]int, len(test))
	for k, i := range test {
		row := S[k*K : (k+1)*K]
		hc.classScores(row, X.Row(i))
		class[k] = -1
		for c, v := range classes {
			if v == y[i] {
				class[k] = c
			}
		}
		if class[k] < 0 || hasNaN(row) {
			return nil // a class the half fit did not see
		}
	}
	r, err := calib.Softmax(S, class, wt, calib.Options{})
	if err != nil || !xmath.Finite(r.A) {
		return nil
	}
	return []float64{math.Max(r.A, minSlope), 0}
}

// heldOutCheck is the accuracy of hm on the test rows against the
// majority class of the train rows (weighted by w when not nil).
func heldOutCheck[M Model](hm M, X featmap.Matrix, y, w []float64, train, test []int) FitStats {
	wt := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	count := map[float64]float64{}
	for _, i := range train {
		count[y[i]] += wt(i)
	}
	var major float64
	best := -1.0
	for c, n := range count {
		if n > best || (n == best && c < major) {
			major, best = c, n
		}
	}
	var right, prior, total float64
	for _, i := range test {
		v := wt(i)
		total += v
		if hm.Predict(X.Row(i)) == y[i] {
			right += v
		}
		if y[i] == major {
			prior += v
		}
	}
	if !(total > 0) {
		return FitStats{}
	}
	st := FitStats{HeldOutRows: len(test), HeldOut: right / total, Baseline: prior / total}
	st.BelowBaseline = st.HeldOut < st.Baseline
	return st
}

// checkCalibration checks a calibration read from a file.
func checkCalibration(cal []float64) error {
	if len(cal) != 2 || !xmath.Finite(cal[0]) || !xmath.Finite(cal[1]) || math.Abs(cal[0]) > MaxParam || math.Abs(cal[1]) > MaxParam {
		return fmt.Errorf("calibration = %v, want two finite numbers of magnitude at most %g", cal, MaxParam)
	}
	return nil
}

// CalibratedFit is the Fit of a learner whose Config has the Toggle
// Calibrate (default on): fit(ctx, X, y, w, cfg), then, when on is true
// and the model is a classifier, Calibrate with fit and sub, cfg without
// its progress report and resumption. seed is cfg's seed.
func CalibratedFit[C any, M Model](ctx context.Context, name string, X featmap.Matrix, y, w []float64, cfg, sub C, on bool, seed uint64,
	fit func(ctx context.Context, X featmap.Matrix, y, w []float64, cfg C) (M, error)) (M, error) {
	m, err := fit(ctx, X, y, w, cfg)
	if err != nil || !on {
		return m, err
	}
	return Calibrate(ctx, name, m, X, y, w, seed, func(ctx context.Context, X featmap.Matrix, y, w []float64) (M, error) {
		return fit(ctx, X, y, w, sub)
	})
}
