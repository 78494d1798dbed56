package solvers

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
)

// checkWeights validates n row weights (finite, ≥ 0, summing to a finite
// positive value) and returns w_i / Σ w.
func checkWeights(w []float64, n int) ([]float64, error) {
	if len(w) != n {
		return nil, fmt.Errorf("%d weights for %d rows", len(w), n)
	}
	var sum float64
	for i, v := range w {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("weight %d is %v, want finite and ≥ 0", i, v)
		}
		sum += v
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return nil, fmt.Errorf("the weights sum to %v, want finite and > 0", sum)
	}
	c := make([]float64, n)
	for i, v := range w {
		c[i] = v / sum
	}
	return c, nil
}

// LogisticWeighted is Logistic with row weights w (len n, finite, ≥ 0,
// not all 0): it minimises
//
//	Σ_i w_i log(1 + exp(−y_i (w·x_i + b))) / Σ_i w_i + (λ/2)‖w‖²,
//
// so a weight of 2 acts as the row twice (up to the order of the sums).
// The arithmetic is Logistic's (asm.Exp, xmath.Log1p, no fused product),
// the same bits on every architecture; opt as Logistic's (Init is the
// start; Precondition samples the weighted Hessian).
func LogisticWeighted(X []float64, n, d int, y, w []float64, lambda float64, opt LogisticOptions) (coef []float64, bias float64, err error) {
	if err := checkMatrix("X", X, n, d); err != nil {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", err)
	}
	if err := checkLabels("y", y, n); err != nil {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", err)
	}
	c, err := checkWeights(w, n)
	if err != nil {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", err)
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, 0, fmt.Errorf("solvers: logistic: lambda = %v, want finite and ≥ 0", lambda)
	}
	maxIter, gtol, err := opt.resolve(d)
	if err != nil {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", err)
	}
	dim := d
	if !opt.NoIntercept {
		dim++
	}
	lb, err := NewLBFGS(dim, opt.Memory)
	if err != nil {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", err)
	}
	margin, expm := make([]float64, n), make([]float64, n)
	obj := func(v, grad []float64) float64 {
		wv := v[:d]
		b := 0.0
		if !opt.NoIntercept {
			b = v[d]
		}
		for j := range grad {
			grad[j] = 0
		}
		for i := 0; i < n; i++ {
			m := y[i] * (dot(wv, X[i*d:(i+1)*d]) + b)
			margin[i], expm[i] = m, -math.Abs(m)
		}
		asm.Exp(expm, expm)
		var loss float64
		for i, m := range margin {
			e := expm[i]
			var l, s float64
			if m > 0 {
				l, s = xmath.Log1p(e), e/(1+e)
			} else {
				l, s = -m+xmath.Log1p(e), 1/(1+e)
			}
			loss += float64(c[i] * l)
			r := float64(float64(-y[i]*s) * c[i])
			axpy(r, X[i*d:(i+1)*d], grad[:d])
			if !opt.NoIntercept {
				grad[d] += r
			}
		}
		axpy(lambda, wv, grad[:d])
		return loss + float64(0.5*lambda*dot(wv, wv))
	}
	x0 := make([]float64, dim)
	if opt.Init != nil {
		copy(x0, opt.Init)
	}
	if opt.Precondition > 0 {
		if h, ok := logisticHessian(X, n, d, y, c, lambda, x0, !opt.NoIntercept, opt.Precondition); ok {
			lb.h0 = h.solve
		}
	}
	res, err := lb.Minimize(obj, x0, LBFGSOptions{
		MaxIterations: maxIter,
		GradTol:       gtol,
		FuncTol:       -1,
		MaxLineSearch: 40,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", err)
	}
	coef = append([]float64(nil), res.X[:d]...)
	if !opt.NoIntercept {
		bias = res.X[d]
	}
	if opt.Info != nil {
		*opt.Info = res
		opt.Info.X = append([]float64(nil), res.X...)
	}
	return coef, bias, nil
}

// RidgeWeighted is Ridge with row weights w (len n, finite, ≥ 0, not all
// 0): it minimises
//
//	Σ_i w_i (y_i − w·x_i − b)² / Σ_i w_i + λ‖w‖²
//
// (b unpenalised), so a weight of 2 acts as the row twice (up to
// rounding). It centres X and y on their weighted means, scales row i by
// √(n·w_i/Σw) and solves the centred problem with Ridge (NoIntercept);
// b = ȳ − x̄·w. Same bits on every architecture.
func RidgeWeighted(X []float64, n, d int, y, w []float64, lambda float64) (coef []float64, bias float64, err error) {
	if err := checkMatrix("X", X, n, d); err != nil {
		return nil, 0, fmt.Errorf("solvers: ridge: %w", err)
	}
	if err := checkVector("y", y, n); err != nil {
		return nil, 0, fmt.Errorf("solvers: ridge: %w", err)
	}
	c, err := checkWeights(w, n)
	if err != nil {
		return nil, 0, fmt.Errorf("solvers: ridge: %w", err)
	}
	xm, ym := make([]float64, d), 0.0
	for i := 0; i < n; i++ {
		axpy(c[i], X[i*d:(i+1)*d], xm)
		ym += float64(c[i] * y[i])
	}
	Xs, ys := make([]float64, n*d), make([]float64, n)
	for i := 0; i < n; i++ {
		s := math.Sqrt(float64(c[i] * float64(n)))
		row := Xs[i*d : (i+1)*d]
		for j, v := range X[i*d : (i+1)*d] {
			row[j] = float64((v - xm[j]) * s)
		}
		ys[i] = float64((y[i] - ym) * s)
	}
	coef, _, err = Ridge(Xs, n, d, ys, lambda, RidgeOptions{NoIntercept: true})
	if err != nil {
		return nil, 0, err
	}
	return coef, ym - dot(xm, coef), nil
}
