package calib

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/xmath"
)

// MaxEvals is the most loss evaluations (passes over the rows) any fit of
// this package makes.
const MaxEvals = 20

// RelTol is the stopping tolerance, relative to the loss: a fit stops when
// the loss's predicted or achieved decrease is at most RelTol·|loss|.
const RelTol = 1e-9

// Result is a fitted calibration.
type Result struct {
	// A is the slope applied to the scores: p = σ(A·s + B) for Temperature
	// and Platt, p = softmax(A·s) for Softmax (whose temperature is 1/A).
	// It can be ≤ 0 when the scores rank the classes the wrong way; a
	// caller that needs p ≥ ½ ⇔ s ≥ 0 clamps it.
	A float64
	// B is the intercept (Platt; 0 for the others).
	B float64
	// Loss is the weighted log loss at (A, B), summed over the rows (with
	// Platt's targets when Options.PlattTargets).
	Loss float64
	// Evals is the number of loss evaluations made, 1 to MaxEvals.
	Evals int
	// Converged is true when the fit stopped by the relative rule (or at
	// a flat loss), false when it stopped at MaxEvals.
	Converged bool
}

// Options tunes a fit. The zero value starts at A = 1, B = 0 with the
// labels as targets.
type Options struct {
	// Start is the starting slope A (0 means 1), in the scores' units: a
	// model's own link, e.g. 2 for the exponential loss's σ(2F), is a good
	// start.
	Start float64
	// PlattTargets replaces the binary targets 1 and 0 by Platt's
	// (N₊ + 1)/(N₊ + 2) and 1/(N₋ + 2) (Platt 1999, N weighted), which keep
	// the slope finite on separable scores. Softmax ignores it.
	PlattTargets bool
	// Ctx, if not nil, is checked before every loss evaluation but the
	// first; a fit under a cancelled Ctx returns its error.
	Ctx context.Context
}

// errEmpty is returned for a fit on no rows.
var errEmpty = errors.New("calib: no rows")

// checkWeights returns an error when w (nil: all 1) does not have n
// finite, non-negative entries with a positive sum.
func checkWeights(w []float64, n int) error {
	if w == nil {
		return nil
	}
	if len(w) != n {
		return fmt.Errorf("calib: %d weights for %d rows", len(w), n)
	}
	var sum float64
	for i, v := range w {
		if !(v >= 0) || !xmath.Finite(v) {
			return fmt.Errorf("calib: weight %d = %v, want finite and ≥ 0", i, v)
		}
		sum += v
	}
	if !(sum > 0) || !xmath.Finite(sum) {
		return fmt.Errorf("calib: weights sum to %v, want finite and > 0", sum)
	}
	return nil
}

// scaleOf returns the power of two 2^e with max|s| in [2^(e−1), 2^e)
// (1 when every score is 0), or an error naming the first score that is
// not finite.
func scaleOf(s []float64) (float64, error) {
	var m float64
	for i, v := range s {
		if !xmath.Finite(v) {
			return 0, fmt.Errorf("calib: score %d = %v, want finite", i, v)
		}
		m = math.Max(m, math.Abs(v))
	}
	if m == 0 {
		return 1, nil
	}
	_, e := math.Frexp(m)
	return math.Ldexp(1, e), nil
}

// start returns the starting slope of o in scaled units, or an error.
func (o Options) start(scale float64) (float64, error) {
	a := o.Start
	if a == 0 {
		a = 1
	}
	if !xmath.Finite(a) {
		return 0, fmt.Errorf("calib: Start = %v, want finite", o.Start)
	}
	return float64(a * scale), nil
}

// weight returns w[i], 1 when w is nil.
func weight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}
