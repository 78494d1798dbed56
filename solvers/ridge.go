package solvers

import (
	"fmt"
	"math"
)

// ridgeMaxCond is the largest condition number accepted for an unregularised
// (λ = 0) system before it is reported as singular.
const ridgeMaxCond = 1e14

// ridgeSolveCond is the condition number above which Solve reports the
// system as ill-conditioned (gonum's mat.ConditionTolerance, which the
// gonum-based implementation returned as an error).
const ridgeSolveCond = 1e16

// RidgeOptions configures Ridge and NewRidgeSolver.
type RidgeOptions struct {
	// NoIntercept fits w without a bias: X and y are not centred and the
	// returned bias is 0.
	NoIntercept bool
}

// RidgeSolver holds the Cholesky factorisation of XcᵀXc + λnI for one
// design matrix so that several right-hand sides can be solved cheaply.
// It keeps a centred, transposed copy of X (the caller's slice is not
// retained). A RidgeSolver is not safe for concurrent use.
//
// The Gram matrix, the factorisation and the solves are local code with a
// fixed order of operations and no fused products (see cholesky.go), not
// gonum's, so the weights have the same bits on every architecture.
type RidgeSolver struct {
	n, d   int
	lambda float64
	xc     []float64 // centred (or plain) copy of X, transposed: d×n
	mean   []float64 // column means (zeros with NoIntercept)
	opt    RidgeOptions
	chol   cholesky
	cond   float64 // 1-norm condition estimate of XcᵀXc + λnI
	yc     []float64
}

// NewRidgeSolver factorises XcᵀXc + λ·n·I, where X is n×d row-major and Xc
// is X with its column means removed (X itself with NoIntercept).
//
// Errors: shape mismatches, NaN/Inf in X, λ < 0 or non-finite, and a
// singular system (λ = 0 with rank-deficient or near rank-deficient X,
// condition number above 1e14, or a factorisation failure).
func NewRidgeSolver(X []float64, n, d int, lambda float64, opt RidgeOptions) (*RidgeSolver, error) {
	if err := checkMatrix("X", X, n, d); err != nil {
		return nil, fmt.Errorf("solvers: ridge: %w", err)
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("solvers: ridge: lambda = %v, want finite and ≥ 0", lambda)
	}
	s := &RidgeSolver{n: n, d: d, lambda: lambda, opt: opt,
		xc: make([]float64, n*d), mean: make([]float64, d), yc: make([]float64, n)}
	if !opt.NoIntercept {
		for i := 0; i < n; i++ {
			for j, v := range X[i*d : (i+1)*d] {
				s.mean[j] += v
			}
		}
		for j := range s.mean {
			s.mean[j] /= float64(n)
		}
	}
	for i := 0; i < n; i++ {
		for j, v := range X[i*d : (i+1)*d] {
			s.xc[j*n+i] = v - s.mean[j]
		}
	}
	a := make([]float64, d*d)
	gram(a, s.xc, n, d)
	reg := float64(lambda * float64(n)) // float64(·): the compiler would fuse it into the += below
	for j := 0; j < d; j++ {
		a[j*d+j] += reg
	}
	anorm := symNorm1(a, d)
	if ok := s.chol.factorize(a, d); !ok {
		return nil, fmt.Errorf("solvers: ridge: %d×%d system XᵀX + λnI (λ = %g) is singular or not positive definite; X is rank-deficient (constant or collinear columns, or d > n): use lambda > 0", d, d, lambda)
	}
	s.cond = s.chol.cond(anorm)
	if lambda == 0 {
		if c := s.cond; !(c <= ridgeMaxCond) {
			return nil, fmt.Errorf("solvers: ridge: XᵀX is singular to working precision (condition number ≈ %.3g > %g); X is rank-deficient (constant or collinear columns, or d > n): use lambda > 0", c, ridgeMaxCond)
		}
	}
	return s, nil
}

// Solve computes the ridge weights for targets y into w (len d) and returns
// the bias ȳ − meanᵀw (0 with NoIntercept).
func (s *RidgeSolver) Solve(w, y []float64) (bias float64, err error) {
	if len(w) != s.d {
		return 0, fmt.Errorf("solvers: ridge: len(w) = %d, want d = %d", len(w), s.d)
	}
	if err := checkVector("y", y, s.n); err != nil {
		return 0, fmt.Errorf("solvers: ridge: %w", err)
	}
	var ybar float64
	if !s.opt.NoIntercept {
		for _, v := range y {
			ybar += v
		}
		ybar /= float64(s.n)
	}
	for i, v := range y {
		s.yc[i] = v - ybar
	}
	// w = (XcᵀXc + λnI)⁻¹ Xcᵀ(y − ȳ)
	for j := range w {
		w[j] = dot(s.xc[j*s.n:(j+1)*s.n], s.yc)
	}
	s.chol.solve(w)
	if !(s.cond <= ridgeSolveCond) {
		return 0, fmt.Errorf("solvers: ridge: solve: matrix singular or near-singular with condition number %.4e", s.cond)
	}
	if i := firstNonFinite(w); i >= 0 {
		return 0, fmt.Errorf("solvers: ridge: w[%d] = %v (overflow): %w", i, w[i], ErrNotFinite)
	}
	if s.opt.NoIntercept {
		return 0, nil
	}
	return ybar - dot(s.mean, w), nil
}

// Ridge solves the ridge regression min_w,b (1/n)‖y − Xw − b‖² + λ‖w‖²,
// i.e. (XcᵀXc + λ·n·I) w = Xcᵀ(y − ȳ), b = ȳ − x̄ᵀw, with X n×d row-major.
// With opt.NoIntercept, X and y are not centred and bias is 0.
// See NewRidgeSolver for the errors.
func Ridge(X []float64, n, d int, y []float64, lambda float64, opt RidgeOptions) (w []float64, bias float64, err error) {
	if err := checkVector("y", y, n); err != nil {
		return nil, 0, fmt.Errorf("solvers: ridge: %w", err)
	}
	s, err := NewRidgeSolver(X, n, d, lambda, opt)
	if err != nil {
		return nil, 0, err
	}
	w = make([]float64, d)
	bias, err = s.Solve(w, y)
	if err != nil {
		return nil, 0, err
	}
	return w, bias, nil
}
