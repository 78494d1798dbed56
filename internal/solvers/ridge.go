package solvers

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/exactsum"
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
// Every sum over rows (the column means, XcᵀXc, and Solve's ȳ and Xcᵀy)
// runs in float64 in row order within blocks of exactsum.Block rows, and
// adds the blocks' sums exactly (RidgeBlockSums): a sum over up to 1024
// rows is the plain sequential one, and a larger one does not depend on
// which worker summed which block, so the distributed fit of package
// github.com/rfkit/rfkit/beam gets the same bits (SolveRidgeSums).
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
		sum := exactsum.NewBlocked(d)
		for lo := 0; lo < n; lo += exactsum.Block {
			for i := lo; i < min(lo+exactsum.Block, n); i++ {
				for j, v := range X[i*d : (i+1)*d] {
					sum.Part[j] += v
				}
			}
			sum.EndBlock()
		}
		sum.Sums(s.mean)
		for j := range s.mean {
			s.mean[j] /= float64(n)
		}
	}
	for i := 0; i < n; i++ {
		for j, v := range X[i*d : (i+1)*d] {
			s.xc[j*n+i] = v - s.mean[j]
		}
	}
	tri := d * (d + 1) / 2
	sum := exactsum.NewBlocked(tri)
	a := make([]float64, d*d)
	for lo := 0; lo < n; lo += exactsum.Block {
		gram(a, s.xc, n, d, lo, min(lo+exactsum.Block, n))
		packLower(sum.Part, a, d)
		sum.EndBlock()
	}
	sum.Sums(sum.Part)
	unpackLower(a, sum.Part, d)
	if err := s.factor(a); err != nil {
		return nil, err
	}
	return s, nil
}

// factor factorises a (d×d, the lower triangle of XcᵀXc) + λnI and
// estimates its condition number.
func (s *RidgeSolver) factor(a []float64) error {
	d := s.d
	reg := float64(s.lambda * float64(s.n)) // float64(·): the compiler would fuse it into the += below
	for j := 0; j < d; j++ {
		a[j*d+j] += reg
	}
	anorm := symNorm1(a, d)
	if ok := s.chol.factorize(a, d); !ok {
		return fmt.Errorf("solvers: ridge: %d×%d system XᵀX + λnI (λ = %g) is singular or not positive definite; X is rank-deficient (constant or collinear columns, or d > n): use lambda > 0", d, d, s.lambda)
	}
	s.cond = s.chol.cond(anorm)
	if s.lambda == 0 {
		if c := s.cond; !(c <= ridgeMaxCond) {
			return fmt.Errorf("solvers: ridge: XᵀX is singular to working precision (condition number ≈ %.3g > %g); X is rank-deficient (constant or collinear columns, or d > n): use lambda > 0", c, ridgeMaxCond)
		}
	}
	return nil
}

// packLower copies the lower triangle of the d×d a row by row into p
// (len d(d+1)/2); unpackLower is its inverse (the upper triangle of a is
// left alone).
func packLower(p, a []float64, d int) {
	k := 0
	for j := 0; j < d; j++ {
		k += copy(p[k:], a[j*d:j*d+j+1])
	}
}

func unpackLower(a, p []float64, d int) {
	k := 0
	for j := 0; j < d; j++ {
		k += copy(a[j*d:j*d+j+1], p[k:])
	}
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
	n := s.n
	var ybar float64
	if !s.opt.NoIntercept {
		sum := exactsum.NewBlocked(1)
		for lo := 0; lo < n; lo += exactsum.Block {
			for _, v := range y[lo:min(lo+exactsum.Block, n)] {
				sum.Part[0] += v
			}
			sum.EndBlock()
		}
		sum.Sums(sum.Part)
		ybar = sum.Part[0] / float64(n)
	}
	for i, v := range y {
		s.yc[i] = v - ybar
	}
	// w = (XcᵀXc + λnI)⁻¹ Xcᵀ(y − ȳ)
	sum := exactsum.NewBlocked(s.d)
	for lo := 0; lo < n; lo += exactsum.Block {
		hi := min(lo+exactsum.Block, n)
		for j := range w {
			sum.Part[j] = dot(s.xc[j*n+lo:j*n+hi], s.yc[lo:hi])
		}
		sum.EndBlock()
	}
	sum.Sums(w)
	return s.finish(w, ybar)
}

// finish solves for w in place (w holds Xcᵀ(y − ȳ)) and returns the bias.
func (s *RidgeSolver) finish(w []float64, ybar float64) (bias float64, err error) {
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
