package calib

import (
	"context"
	"math"

	"github.com/rfkit/rfkit/internal/xmath"
)

// evalFunc returns the loss at x (len 1 or 2), its gradient g and its
// Hessian h = [h00, h01, h11] (h01, h11 unused in one dimension).
type evalFunc func(x []float64) (l float64, g [2]float64, h [3]float64)

// newton minimises the convex loss eval over x (len 1 or 2, updated in
// place) from x: see the package comment. It returns the loss at x, the
// number of evaluations and whether the relative rule stopped it, or
// ctx's error (checked before every evaluation but the first; ctx nil:
// never): an evaluation is a pass over the rows, up to MaxEvals of them.
func newton(ctx context.Context, eval evalFunc, x []float64) (loss float64, evals int, converged bool, err error) {
	dim := len(x)
	l, g, h := eval(x)
	evals = 1
	trial := make([]float64, dim)
	for evals < MaxEvals {
		d, ok := newtonStep(g, h, dim)
		if !ok {
			// a flat loss (every score 0, or σ saturated): nothing to gain
			return l, evals, true, nil
		}
		slope := float64(g[0] * d[0]) // g·d < 0: the directional derivative
		if dim == 2 {
			slope += float64(g[1] * d[1])
		}
		if !(slope < 0) || -0.5*slope <= RelTol*math.Abs(l) {
			return l, evals, true, nil
		}
		accepted := false
		for step := 1.0; evals < MaxEvals; step /= 2 {
			if ctx != nil && ctx.Err() != nil {
				return l, evals, false, ctx.Err()
			}
			for k := range trial {
				trial[k] = x[k] + float64(step*d[k])
			}
			nl, ng, nh := eval(trial)
			evals++
			if nl < l && nl <= l+float64(1e-4*float64(step*slope)) {
				gain := l - nl
				copy(x, trial)
				l, g, h = nl, ng, nh
				accepted = true
				if gain <= RelTol*math.Abs(l) {
					return l, evals, true, nil
				}
				break
			}
			if -float64(step*slope) <= RelTol*math.Abs(l) {
				// the step no longer predicts a decrease above roundoff
				return l, evals, true, nil
			}
		}
		if !accepted {
			break
		}
	}
	return l, evals, false, nil
}

// newtonStep returns d = −h⁻¹g (dim 1 or 2), false when h is not positive
// definite or d is not finite.
func newtonStep(g [2]float64, h [3]float64, dim int) ([2]float64, bool) {
	var d [2]float64
	if dim == 1 {
		if !(h[0] > 0) {
			return d, false
		}
		d[0] = -g[0] / h[0]
		return d, xmath.Finite(d[0])
	}
	// a ridge relative to the diagonal keeps a nearly singular h (scores
	// that barely vary) solvable
	h00 := float64(h[0] * (1 + 1e-12))
	h11 := float64(h[2] * (1 + 1e-12))
	det := float64(h00*h11) - float64(h[1]*h[1])
	if !(h00 > 0) || !(h11 > 0) || !(det > 0) {
		return d, false
	}
	d[0] = -(float64(h11*g[0]) - float64(h[1]*g[1])) / det
	d[1] = -(float64(h00*g[1]) - float64(h[1]*g[0])) / det
	return d, xmath.Finite(d[0]) && xmath.Finite(d[1])
}
