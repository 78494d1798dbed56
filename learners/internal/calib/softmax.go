package calib

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/xmath"
)

// Softmax fits the multiclass temperature: p_k = softmax(a·s)_k on the
// rows of S (n×K, row-major, K = len(S)/len(class)) with their classes
// class[i] in [0, K) and row weights w (nil: all 1), by weighted log loss,
// and returns a (the inverse temperature, T = 1/a) as Result.A. A
// temperature keeps the arg max of every row: the calibrated prediction
// is the uncalibrated one (for a > 0).
func Softmax(S []float64, class []int, w []float64, o Options) (Result, error) {
	n := len(class)
	if n == 0 {
		return Result{}, errEmpty
	}
	if len(S)%n != 0 || len(S) < 2*n {
		return Result{}, fmt.Errorf("calib: %d scores for %d rows, want K ≥ 2 per row", len(S), n)
	}
	K := len(S) / n
	if err := checkWeights(w, n); err != nil {
		return Result{}, err
	}
	for i, c := range class {
		if c < 0 || c >= K {
			return Result{}, fmt.Errorf("calib: class %d = %d, want [0, %d)", i, c, K)
		}
	}
	scale, err := scaleOf(S)
	if err != nil {
		return Result{}, err
	}
	a0, err := o.start(scale)
	if err != nil {
		return Result{}, err
	}
	z := make([]float64, len(S))
	for i, v := range S {
		z[i] = v / scale
	}
	eval := func(x []float64) (l float64, g [2]float64, h [3]float64) {
		a := x[0]
		for i, c := range class {
			row := z[i*K : (i+1)*K]
			m := math.Inf(-1)
			for _, v := range row {
				m = math.Max(m, float64(a*v))
			}
			// Z = Σ e^{a·s_k − m}; E[s] and E[s²] under p
			var Z, es, es2 float64
			for _, v := range row {
				e := xmath.Exp(float64(a*v) - m)
				Z += e
				es += float64(e * v)
				es2 += float64(e * float64(v*v))
			}
			es, es2 = es/Z, es2/Z
			wi := weight(w, i)
			// ℓ = log Z + m − a·s_c; ∂ℓ/∂a = E[s] − s_c; ∂²ℓ/∂a² = Var(s)
			l += float64(wi * (xmath.Log(Z) + m - float64(a*row[c])))
			g[0] += float64(wi * (es - row[c]))
			h[0] += float64(wi * math.Max(es2-float64(es*es), 0))
		}
		return l, g, h
	}
	x := []float64{a0}
	loss, evals, conv, err := newton(o.Ctx, eval, x)
	if err != nil {
		return Result{}, err
	}
	return Result{A: x[0] / scale, Loss: loss, Evals: evals, Converged: conv}, nil
}
