package kit

import (
	"github.com/rfkit/rfkit/learners"

	"fmt"
	"math"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners/internal/calib"
)

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

// FitStats returns the held-out check of the Fit that made the model
// (zero for a model loaded from a file or fitted without calibration).
func (b *Base[T, P]) FitStats() learners.FitStats { return b.stats }

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
	setCalibration(cal []float64, st learners.FitStats)
	classScores(dst, x []float64)
}

func (b *Base[T, P]) setCalibration(cal []float64, st learners.FitStats) {
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

// binaryCalibration fits the temperature to the held-out scores of hm and
// returns it with its log loss (with Platt's targets, per unit of weight);
// nil when the fit fails.
func binaryCalibration[M learners.Model](hm M, X featmap.Matrix, y, wt []float64, test []int) ([]float64, float64) {
	sc, ok := any(hm).(interface{ Score(x []float64) float64 })
	lm, ok2 := any(hm).(interface{ Labels() learners.Labels })
	if !ok || !ok2 {
		return nil, math.Inf(1)
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
			return nil, math.Inf(1)
		}
	}
	r, err := calib.Temperature(s, t, wt, calib.Options{PlattTargets: true})
	if err != nil || !xmath.Finite(r.A) {
		return nil, math.Inf(1)
	}
	// scores that do not rank the classes give a ≤ 0; a small positive
	// slope keeps p ≥ ½ exactly when the model predicts the larger label
	return []float64{math.Max(r.A, minSlope), 0}, r.Loss / totalWeight(wt, len(test))
}

// softmaxCalibration fits the softmax temperature to the held-out class
// scores of hm and returns it with its log loss per unit of weight; nil
// when the fit fails.
func softmaxCalibration[M learners.Model](hm M, X featmap.Matrix, y, wt []float64, test []int) ([]float64, float64) {
	hc, ok := any(hm).(calibrated)
	cl, ok2 := any(hm).(interface{ Classes() []float64 })
	if !ok || !ok2 {
		return nil, math.Inf(1)
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
			return nil, math.Inf(1) // a class the half fit did not see
		}
	}
	r, err := calib.Softmax(S, class, wt, calib.Options{})
	if err != nil || !xmath.Finite(r.A) {
		return nil, math.Inf(1)
	}
	return []float64{math.Max(r.A, minSlope), 0}, r.Loss / totalWeight(wt, len(test))
}

// heldOutCheck is the accuracy of hm on the test rows against the
// majority class of the train rows (weighted by w when not nil).
func heldOutCheck[M learners.Model](hm M, X featmap.Matrix, y, w []float64, train, test []int) learners.FitStats {
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
		return learners.FitStats{}
	}
	st := learners.FitStats{HeldOutRows: len(test), Metric: "accuracy", HeldOut: right / total, Baseline: prior / total}
	st.BelowBaseline = st.HeldOut < st.Baseline
	return st
}

// checkCalibration checks a calibration read from a file.
func checkCalibration(cal []float64) error {
	if len(cal) != 2 || !xmath.Finite(cal[0]) || !xmath.Finite(cal[1]) || math.Abs(cal[0]) > limit.Param || math.Abs(cal[1]) > limit.Param {
		return fmt.Errorf("calibration = %v, want two finite numbers of magnitude at most %g", cal, limit.Param)
	}
	return nil
}

// totalWeight is the sum of w, or n when w is nil.
func totalWeight(w []float64, n int) float64 {
	if w == nil {
		return float64(n)
	}
	var s float64
	for _, v := range w {
		s += v
	}
	return s
}
