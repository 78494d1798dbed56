package solvers

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
)

// MultinomialOptions configures Multinomial. The zero value selects
// Logistic's defaults (1000 iterations, gradient tolerance 1e-8, memory
// 10).
type MultinomialOptions struct {
	// NoIntercept fits W without the K biases (returned as zeros).
	NoIntercept bool
	// MaxIterations bounds the L-BFGS iterations (0 → 1000; negative is an
	// error).
	MaxIterations int
	// GradTol stops when the infinity norm of the gradient is ≤ GradTol
	// (0 → 1e-8; negative is an error).
	GradTol float64
	// Memory is the L-BFGS memory (0 → 10; negative is an error).
	Memory int
	// Weights, if not nil, are the rows' weights (len n, finite, ≥ 0, not
	// all 0): the data term is the weighted mean Σ w_i ℓ_i / Σ w_i, so a
	// weight of 2 acts as the row twice (up to the order of the sums).
	Weights []float64
	// Init, if not nil, is the starting point: the K×d weights then the K
	// biases (len K·d + K; K·d with NoIntercept). Nil starts from 0.
	Init []float64
	// Info, if non-nil, receives the L-BFGS Result; its X is a copy.
	Info *Result
}

// MaxMultinomialClasses bounds K in Multinomial.
const MaxMultinomialClasses = 1 << 12

// Multinomial fits L2-regularised multinomial (softmax) logistic
// regression on labels y_i ∈ {0, …, K−1} (integers held in float64):
//
//	min_{W,b} (1/n) Σ_i [log Σ_k exp(s_ik) − s_{i,y_i}] + (λ/2)‖W‖²,
//	s_ik = W_k·x_i + b_k,
//
// (the biases are not penalised; with weights the mean is weighted) by
// L-BFGS from W = 0, b = 0 (or opt.Init). It returns W, K×d row-major, and the K biases;
// the probability of class k is the softmax of the scores s_k. Every
// class has its own row (the symmetric parameterisation): λ > 0 makes the
// minimiser unique, and the biases, unpenalised, stay centred (their
// gradient sums to 0).
//
// X is n×d row-major. All buffers are allocated before L-BFGS starts, so
// its iterations allocate nothing; the exponentials come from package
// internal/asm (after subtracting each row's largest score, so they never
// overflow), the logarithms from xmath.Log, and no product is fused, so
// the result has the same bits on every architecture.
//
// Not reaching GradTol within MaxIterations is not an error (opt.Info
// reports the status). Errors: shape mismatches, NaN/Inf in X, K < 2 or
// above MaxMultinomialClasses, a label that is not an integer in
// [0, K), λ < 0 or non-finite, bad weights, invalid options.
func Multinomial(X []float64, n, d int, y []float64, K int, lambda float64, opt MultinomialOptions) (W, bias []float64, err error) {
	if err := checkMatrix("X", X, n, d); err != nil {
		return nil, nil, fmt.Errorf("solvers: multinomial: %w", err)
	}
	if K < 2 || K > MaxMultinomialClasses {
		return nil, nil, fmt.Errorf("solvers: multinomial: K = %d classes, want 2..%d", K, MaxMultinomialClasses)
	}
	if len(y) != n {
		return nil, nil, fmt.Errorf("solvers: multinomial: y: len = %d, want %d", len(y), n)
	}
	for i, v := range y {
		if !(v >= 0 && v < float64(K)) || v != math.Trunc(v) {
			return nil, nil, fmt.Errorf("solvers: multinomial: y[%d] = %v, want a class index in 0..%d", i, v, K-1)
		}
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, nil, fmt.Errorf("solvers: multinomial: lambda = %v, want finite and ≥ 0", lambda)
	}
	maxIter, gtol := opt.MaxIterations, opt.GradTol
	switch {
	case maxIter < 0:
		return nil, nil, fmt.Errorf("solvers: multinomial: MaxIterations = %d, want ≥ 0", maxIter)
	case maxIter == 0:
		maxIter = DefaultLogisticMaxIterations
	}
	switch {
	case !(gtol >= 0):
		return nil, nil, fmt.Errorf("solvers: multinomial: GradTol = %v, want ≥ 0", gtol)
	case gtol == 0:
		gtol = DefaultLogisticGradTol
	}
	if opt.Memory < 0 {
		return nil, nil, fmt.Errorf("solvers: multinomial: Memory = %d, want ≥ 0", opt.Memory)
	}
	// c_i = w_i / Σ w, the weight of row i in the mean.
	c := make([]float64, n)
	if w := opt.Weights; w != nil {
		if len(w) != n {
			return nil, nil, fmt.Errorf("solvers: multinomial: %d weights for %d rows", len(w), n)
		}
		var sum float64
		for i, v := range w {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("solvers: multinomial: weight %d is %v, want finite and ≥ 0", i, v)
			}
			sum += v
		}
		if !(sum > 0) || math.IsInf(sum, 0) {
			return nil, nil, fmt.Errorf("solvers: multinomial: the weights sum to %v, want finite and > 0", sum)
		}
		for i, v := range w {
			c[i] = v / sum
		}
	} else {
		inv := 1 / float64(n)
		for i := range c {
			c[i] = inv
		}
	}
	if K > math.MaxInt/max(d+1, 1) || n > math.MaxInt/K {
		return nil, nil, fmt.Errorf("solvers: multinomial: %d rows × %d classes × %d inputs overflow", n, K, d)
	}

	nw := K * d
	dim := nw
	if !opt.NoIntercept {
		dim += K
	}
	lb, err := NewLBFGS(dim, opt.Memory)
	if err != nil {
		return nil, nil, fmt.Errorf("solvers: multinomial: %w", err)
	}
	S, E := make([]float64, n*K), make([]float64, n*K)
	obj := func(v, grad []float64) float64 {
		wv := v[:nw]
		for j := range grad {
			grad[j] = 0
		}
		for i := 0; i < n; i++ {
			xi, si := X[i*d:(i+1)*d], S[i*K:(i+1)*K]
			m := math.Inf(-1)
			for k := range si {
				s := dot(wv[k*d:(k+1)*d], xi)
				if !opt.NoIntercept {
					s += v[nw+k]
				}
				si[k] = s
				if s > m {
					m = s
				}
			}
			for k := range si {
				si[k] -= m // ≤ 0: its exponential cannot overflow
			}
		}
		asm.Exp(E, S) // the same bits everywhere (unlike math.Exp)
		var loss float64
		for i := 0; i < n; i++ {
			xi, si, ei := X[i*d:(i+1)*d], S[i*K:(i+1)*K], E[i*K:(i+1)*K]
			var sum float64
			for _, e := range ei {
				sum += e
			}
			yi := int(y[i])
			loss += float64(c[i] * (xmath.Log(sum) - si[yi]))
			for k, e := range ei {
				p := e / sum
				if k == yi {
					p--
				}
				r := float64(c[i] * p)
				axpy(r, xi, grad[k*d:(k+1)*d])
				if !opt.NoIntercept {
					grad[nw+k] += r
				}
			}
		}
		axpy(lambda, wv, grad[:nw])
		return loss + float64(0.5*lambda*dot(wv, wv))
	}
	x0 := make([]float64, dim)
	if opt.Init != nil {
		if err := checkVector("Init", opt.Init, dim); err != nil {
			return nil, nil, fmt.Errorf("solvers: multinomial: %w", err)
		}
		copy(x0, opt.Init)
	}
	res, err := lb.Minimize(obj, x0, LBFGSOptions{
		MaxIterations: maxIter,
		GradTol:       gtol,
		FuncTol:       -1, // stop on the gradient only
		MaxLineSearch: 40,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("solvers: multinomial: %w", err)
	}
	W = append([]float64(nil), res.X[:nw]...)
	bias = make([]float64, K)
	if !opt.NoIntercept {
		copy(bias, res.X[nw:])
	}
	if opt.Info != nil {
		*opt.Info = res
		opt.Info.X = append([]float64(nil), res.X...)
	}
	return W, bias, nil
}
