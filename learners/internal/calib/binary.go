package calib

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/xmath"
)

// Temperature fits p = σ(a·s) to the binary labels y (±1) of the scores s
// with row weights w (nil: all 1) by weighted log loss, and returns a as
// Result.A (B = 0). With no intercept p ≥ ½ exactly when s ≥ 0 (for
// a > 0), so the calibrated probability agrees with the sign of the score.
func Temperature(s, y, w []float64, o Options) (Result, error) {
	return fitBinary(s, y, w, o, 1)
}

// Platt fits p = σ(a·s + b) (Platt scaling, in the form of Lin, Lin and
// Weng 2007) to the binary labels y (±1) of the scores s with row weights w
// (nil: all 1), and returns a and b as Result.A and Result.B. It starts
// from a = Options.Start and b = 0.
func Platt(s, y, w []float64, o Options) (Result, error) {
	return fitBinary(s, y, w, o, 2)
}

// fitBinary is Temperature (dim 1) and Platt (dim 2).
func fitBinary(s, y, w []float64, o Options, dim int) (Result, error) {
	n := len(s)
	if n == 0 {
		return Result{}, errEmpty
	}
	if len(y) != n {
		return Result{}, fmt.Errorf("calib: %d labels for %d scores", len(y), n)
	}
	if err := checkWeights(w, n); err != nil {
		return Result{}, err
	}
	scale, err := scaleOf(s)
	if err != nil {
		return Result{}, err
	}
	a0, err := o.start(scale)
	if err != nil {
		return Result{}, err
	}
	var np, nn float64
	for i, v := range y {
		switch v {
		case 1:
			np += weight(w, i)
		case -1:
			nn += weight(w, i)
		default:
			return Result{}, fmt.Errorf("calib: label %d = %v, want -1 or +1", i, v)
		}
	}
	hi, lo := 1.0, 0.0
	if o.PlattTargets {
		hi, lo = (np+1)/(np+2), 1/(nn+2)
	}
	// the scaled scores: exact, a power of two
	z := make([]float64, n)
	for i, v := range s {
		z[i] = v / scale
	}
	eval := func(x []float64) (l float64, g [2]float64, h [3]float64) {
		a, b := x[0], 0.0
		if dim == 2 {
			b = x[1]
		}
		for i, zi := range z {
			t := lo
			if y[i] > 0 {
				t = hi
			}
			f := float64(a*zi) + b
			// log(1 + e^{−f}) + (1 − t)·f without overflow; p = σ(f), q = 1 − p
			var li, p, q float64
			if f >= 0 {
				e := xmath.Exp(-f)
				li = float64((1-t)*f) + xmath.Log(1+e)
				p, q = 1/(1+e), e/(1+e)
			} else {
				e := xmath.Exp(f)
				li = float64(-t*f) + xmath.Log(1+e)
				p, q = e/(1+e), 1/(1+e)
			}
			wi := weight(w, i)
			r := float64(wi * (p - t))      // w·∂ℓ/∂f
			c := float64(wi * float64(p*q)) // w·∂²ℓ/∂f²
			l += float64(wi * li)
			g[0] += float64(r * zi)
			h[0] += float64(c * float64(zi*zi))
			if dim == 2 {
				g[1] += r
				h[1] += float64(c * zi)
				h[2] += c
			}
		}
		return l, g, h
	}
	x := []float64{a0, 0}[:dim]
	loss, evals, conv, err := newton(o.Ctx, eval, x)
	if err != nil {
		return Result{}, err
	}
	r := Result{A: x[0] / scale, Loss: loss, Evals: evals, Converged: conv}
	if dim == 2 {
		r.B = x[1]
	}
	return r, nil
}
