package solvers

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ridgeMaxCond is the largest condition number accepted for an unregularised
// (λ = 0) system before it is reported as singular.
const ridgeMaxCond = 1e14

// RidgeOptions configures Ridge and NewRidgeSolver.
type RidgeOptions struct {
	// NoIntercept fits w without a bias: X and y are not centred and the
	// returned bias is 0.
	NoIntercept bool
}

// RidgeSolver holds the Cholesky factorisation of XcᵀXc + λnI for one
// design matrix so that several right-hand sides can be solved cheaply.
// It keeps a centred copy of X (the caller's slice is not retained).
// A RidgeSolver is not safe for concurrent use.
type RidgeSolver struct {
	n, d   int
	lambda float64
	xc     []float64 // centred (or plain) copy of X, n×d
	mean   []float64 // column means (zeros with NoIntercept)
	opt    RidgeOptions
	chol   mat.Cholesky
	rhs    *mat.VecDense
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
	copy(s.xc, X)
	if !opt.NoIntercept {
		for i := 0; i < n; i++ {
			axpy(1, s.xc[i*d:(i+1)*d], s.mean)
		}
		for j := range s.mean {
			s.mean[j] /= float64(n)
		}
		for i := 0; i < n; i++ {
			axpy(-1, s.mean, s.xc[i*d:(i+1)*d])
		}
	}
	a := mat.NewSymDense(d, nil)
	a.SymOuterK(1, mat.NewDense(n, d, s.xc).T())
	reg := lambda * float64(n)
	for j := 0; j < d; j++ {
		a.SetSym(j, j, a.At(j, j)+reg)
	}
	if ok := s.chol.Factorize(a); !ok {
		return nil, fmt.Errorf("solvers: ridge: %d×%d system XᵀX + λnI (λ = %g) is singular or not positive definite; X is rank-deficient (constant or collinear columns, or d > n): use lambda > 0", d, d, lambda)
	}
	if lambda == 0 {
		if c := s.chol.Cond(); !(c <= ridgeMaxCond) {
			return nil, fmt.Errorf("solvers: ridge: XᵀX is singular to working precision (condition number ≈ %.3g > %g); X is rank-deficient (constant or collinear columns, or d > n): use lambda > 0", c, ridgeMaxCond)
		}
	}
	s.rhs = mat.NewVecDense(d, nil)
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
	// rhs = Xcᵀ (y − ȳ)
	r := s.rhs.RawVector().Data
	for j := range r {
		r[j] = 0
	}
	for i := 0; i < s.n; i++ {
		axpy(s.yc[i], s.xc[i*s.d:(i+1)*s.d], r)
	}
	wv := mat.NewVecDense(s.d, w)
	if err := s.chol.SolveVecTo(wv, s.rhs); err != nil {
		return 0, fmt.Errorf("solvers: ridge: solve: %w", err)
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
