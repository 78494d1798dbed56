package solvers

import (
	"errors"
	"fmt"
	"math"
)

// Default settings of LBFGS; a zero field in LBFGSOptions selects them.
const (
	// DefaultLBFGSMaxIterations matches scipy's fmin_l_bfgs_b(maxiter=10)
	// used by the GBRFF reference code.
	DefaultLBFGSMaxIterations = 10
	// DefaultLBFGSMemory is the number of stored correction pairs.
	DefaultLBFGSMemory = 10
	// DefaultLBFGSGradTol is scipy's pgtol.
	DefaultLBFGSGradTol = 1e-5
	// DefaultLBFGSFuncTol is scipy's factr·eps = 1e7·2.22e-16.
	DefaultLBFGSFuncTol = 1e7 * 2.220446049250313e-16
	// DefaultLBFGSMaxLineSearch bounds the evaluations of one line search.
	DefaultLBFGSMaxLineSearch = 20
)

// Line-search constants (strong Wolfe conditions).
const (
	lsDecrease  = 1e-4  // sufficient decrease (Armijo) constant c1
	lsCurvature = 0.9   // curvature constant c2
	lsStepTol   = 1e-12 // relative width of the bracket below which the search gives up
)

// LBFGSOptions configures LBFGS.Minimize. The zero value selects the defaults.
type LBFGSOptions struct {
	// MaxIterations is the maximum number of accepted iterations
	// (0 → DefaultLBFGSMaxIterations; negative is an error).
	MaxIterations int
	// Memory is the number of correction pairs used, at most the memory the
	// LBFGS was created with (0 → all of it).
	Memory int
	// GradTol stops when the infinity norm of the gradient is ≤ GradTol
	// (0 → DefaultLBFGSGradTol; negative disables the test).
	GradTol float64
	// FuncTol stops when (f_k − f_{k+1}) ≤ FuncTol·max(|f_k|, |f_{k+1}|, 1)
	// (0 → DefaultLBFGSFuncTol; negative disables the test).
	FuncTol float64
	// MaxLineSearch bounds the function evaluations of one line search
	// (0 → DefaultLBFGSMaxLineSearch; negative is an error).
	MaxLineSearch int
	// PredictedStop also applies the FuncTol rule before an iteration, to
	// the decrease the quasi-Newton model predicts for it: with at least
	// one correction pair stored and the search direction d, Minimize
	// stops (StatusFuncConverged, no further evaluation of f) when
	// −½·gᵀd ≤ FuncTol·max(|f|, 1). It is the L-BFGS form of the Newton
	// decrement stop (Boyd & Vandenberghe, Convex Optimization, §9.5.1):
	// it saves the last iteration of a search whose next step would gain
	// less than the tolerance, one or more evaluations of f.
	PredictedStop bool
	// FirstStep, when not nil, sets the first trial step of the first
	// iteration (along −g, no correction pair yet) to FirstStep(f, g) times
	// −g, given the objective and gradient at x0: a scale of the inverse
	// Hessian the caller knows. A result that is not finite and > 0 falls
	// back to the default, a step of length 1 (1/‖g‖₂ times −g).
	FirstStep func(f float64, g []float64) float64
}

// LBFGS is a reusable limited-memory BFGS minimiser for many small problems
// of one dimension. All work buffers are allocated by NewLBFGS, so Minimize
// allocates nothing (given an objective that allocates nothing).
//
// The line search is the MINPACK-2 dcsrch algorithm of Moré and Thuente, in
// a copy of gonum's optimize.MoreThuente (morethuente.go), driven one
// evaluation at a time, with the strong Wolfe constants c1 = 1e-4 and
// c2 = 0.9. The first step of a search without curvature information is
// 1/‖g‖₂ (as scipy and gonum do), later searches start at the unit step with
// the usual γ = sᵀy/yᵀy initial Hessian.
//
// Every product that feeds an addition is rounded on its own (float64(a*b)),
// and sums run in a fixed order, so given an objective with the same bits
// everywhere, Minimize returns the same bits on every architecture (the Go
// compiler fuses a*b+c into an FMA on arm64 but not on amd64).
//
// An LBFGS is not safe for concurrent use.
type LBFGS struct {
	dim, mem int

	x, g   []float64 // current iterate and gradient
	d      []float64 // search direction
	xt, gt []float64 // line-search trial point
	xb, gb []float64 // best trial point of the current line search
	s, y   []float64 // mem×dim ring buffers of correction pairs
	rho    []float64 // 1/(sᵀy) per pair
	alpha  []float64 // two-loop scratch

	ls moreThuente

	// h0, if not nil, applies the initial inverse Hessian to v in place
	// (a fixed preconditioner, as Logistic's Precondition builds): the
	// two-loop recursion uses it instead of the scaling γ = sᵀy/yᵀy, and
	// the first step (no pair yet) is −h0(g) with step 1.
	h0 func(v []float64)
}

// MaxLBFGSValues bounds the state of an LBFGS, (7 + 2·memory)·dim + 2·memory
// float64 values (2²⁸, 2 GiB): NewLBFGS refuses larger problems with an
// error instead of exhausting memory.
const MaxLBFGSValues = 1 << 28

// NewLBFGS returns a minimiser for functions of dim variables that stores up
// to memory correction pairs (memory 0 → DefaultLBFGSMemory).
func NewLBFGS(dim, memory int) (*LBFGS, error) {
	if dim <= 0 {
		return nil, fmt.Errorf("solvers: NewLBFGS: dimension %d, want > 0", dim)
	}
	if memory == 0 {
		memory = DefaultLBFGSMemory
	}
	if memory < 0 {
		return nil, fmt.Errorf("solvers: NewLBFGS: memory %d, want ≥ 0", memory)
	}
	if memory > MaxLBFGSValues/9 || dim > (MaxLBFGSValues-2*memory)/(2*memory+7) {
		return nil, fmt.Errorf("solvers: NewLBFGS: dimension %d with memory %d needs more than %d values (solvers.MaxLBFGSValues)", dim, memory, MaxLBFGSValues)
	}
	buf := make([]float64, 7*dim+2*memory*dim+2*memory)
	take := func(k int) []float64 {
		b := buf[:k:k]
		buf = buf[k:]
		return b
	}
	l := &LBFGS{dim: dim, mem: memory}
	l.x, l.g, l.d = take(dim), take(dim), take(dim)
	l.xt, l.gt, l.xb, l.gb = take(dim), take(dim), take(dim), take(dim)
	l.s, l.y = take(memory*dim), take(memory*dim)
	l.rho, l.alpha = take(memory), take(memory)
	return l, nil
}

// Dim returns the number of variables.
func (l *LBFGS) Dim() int { return l.dim }

// Memory returns the maximum number of stored correction pairs.
func (l *LBFGS) Memory() int { return l.mem }

// Minimize minimises f starting from x0 (which is not modified).
//
// f must return the objective at x and write its gradient into grad
// (len(grad) == len(x) == Dim()); it must not retain either slice.
// Result.X aliases an internal buffer that the next call overwrites.
//
// A line search that cannot satisfy the Wolfe conditions is not an error: the
// search is restarted once along the steepest descent direction with the
// memory cleared, and if that fails too the best point is returned with
// StatusLineSearchFailure. An error is returned for invalid options, a
// non-finite x0, a non-finite value or gradient at x0, or when f keeps
// returning non-finite values along a search direction even after the step
// has been shrunk (the error wraps ErrNotFinite; the Result still holds the
// best finite point found).
func (l *LBFGS) Minimize(f func(x, grad []float64) float64, x0 []float64, opt LBFGSOptions) (Result, error) {
	if f == nil {
		return Result{}, errors.New("solvers: LBFGS.Minimize: nil objective")
	}
	if len(x0) != l.dim {
		return Result{}, fmt.Errorf("solvers: LBFGS.Minimize: len(x0) = %d, want dimension %d", len(x0), l.dim)
	}
	if i := firstNonFinite(x0); i >= 0 {
		return Result{}, fmt.Errorf("solvers: LBFGS.Minimize: x0[%d] = %v: %w", i, x0[i], ErrNotFinite)
	}
	maxIter, mem, gtol, ftol, maxLS, err := l.settings(opt)
	if err != nil {
		return Result{}, err
	}

	copy(l.x, x0)
	fx := f(l.x, l.g)
	res := Result{X: l.x, F: fx, Evaluations: 1}
	if !isFinite(fx) {
		return res, fmt.Errorf("solvers: LBFGS.Minimize: objective at x0 is %v: %w", fx, ErrNotFinite)
	}
	if i := firstNonFinite(l.g); i >= 0 {
		return res, fmt.Errorf("solvers: LBFGS.Minimize: gradient[%d] at x0 is %v: %w", i, l.g[i], ErrNotFinite)
	}
	res.GradNorm = normInf(l.g)
	if res.GradNorm <= gtol {
		res.Status = StatusGradConverged
		return res, nil
	}

	k, head := 0, 0 // stored pairs; ring index of the next slot
	for res.Iterations < maxIter {
		// Search direction.
		l.direction(k, head, mem)
		dg := dot(l.d, l.g)
		if !(dg < 0) || !isFinite(dg) {
			k = 0
			for i, v := range l.g {
				l.d[i] = -v
			}
			dg = dot(l.d, l.g)
		}
		if opt.PredictedStop && k > 0 && isFinite(dg) && -0.5*dg <= ftol*math.Max(math.Abs(fx), 1) {
			res.Status = StatusFuncConverged
			return res, nil
		}
		step := 1.0
		if k == 0 && l.h0 == nil {
			step = 1 / norm2(l.d)
			if opt.FirstStep != nil && res.Iterations == 0 {
				if s := opt.FirstStep(fx, l.g); s > 0 && isFinite(s) {
					step = s
				}
			}
		}
		if !(step > 0) || !isFinite(step) || !(dg < 0) {
			res.Status = StatusLineSearchFailure
			return res, nil
		}

		ft, ok, nonFinite := l.lineSearch(f, fx, dg, step, maxLS, &res.Evaluations)
		if !ok {
			improved := ft < fx
			if improved {
				// Move to the best trial point, without a curvature pair.
				copy(l.x, l.xb)
				copy(l.g, l.gb)
				fx = ft
				res.Iterations++
			}
			if k > 0 {
				k = 0 // retry once along the steepest descent direction
				if improved {
					res.F, res.GradNorm = fx, normInf(l.g)
					if res.GradNorm <= gtol {
						res.Status = StatusGradConverged
						return res, nil
					}
				}
				continue
			}
			res.F, res.GradNorm = fx, normInf(l.g)
			res.Status = StatusLineSearchFailure
			if nonFinite && !improved {
				return res, fmt.Errorf("solvers: LBFGS.Minimize: objective non-finite along the search direction at iteration %d: %w", res.Iterations, ErrNotFinite)
			}
			return res, nil
		}

		// Accept the trial point and store the correction pair.
		s := l.s[head*l.dim : (head+1)*l.dim]
		y := l.y[head*l.dim : (head+1)*l.dim]
		var sy, yy float64
		for i := range s {
			s[i] = l.xt[i] - l.x[i]
			y[i] = l.gt[i] - l.g[i]
			sy += float64(s[i] * y[i])
			yy += float64(y[i] * y[i])
		}
		if sy > 1e-12*yy && sy > 0 && isFinite(sy) {
			l.rho[head] = 1 / sy
			head = (head + 1) % mem
			if k < mem {
				k++
			}
		}
		copy(l.x, l.xt)
		copy(l.g, l.gt)
		fPrev := fx
		fx = ft
		res.Iterations++
		res.F, res.GradNorm = fx, normInf(l.g)
		if res.GradNorm <= gtol {
			res.Status = StatusGradConverged
			return res, nil
		}
		if fPrev-fx <= ftol*math.Max(math.Max(math.Abs(fPrev), math.Abs(fx)), 1) {
			res.Status = StatusFuncConverged
			return res, nil
		}
	}
	res.Status = StatusMaxIterations
	return res, nil
}

// settings resolves the options against the defaults.
func (l *LBFGS) settings(opt LBFGSOptions) (maxIter, mem int, gtol, ftol float64, maxLS int, err error) {
	maxIter, mem, gtol, ftol, maxLS = opt.MaxIterations, opt.Memory, opt.GradTol, opt.FuncTol, opt.MaxLineSearch
	switch {
	case maxIter < 0:
		return 0, 0, 0, 0, 0, fmt.Errorf("solvers: LBFGS.Minimize: MaxIterations = %d, want ≥ 0", maxIter)
	case maxIter == 0:
		maxIter = DefaultLBFGSMaxIterations
	}
	switch {
	case mem < 0 || mem > l.mem:
		return 0, 0, 0, 0, 0, fmt.Errorf("solvers: LBFGS.Minimize: Memory = %d, want in [0, %d]", mem, l.mem)
	case mem == 0:
		mem = l.mem
	}
	switch {
	case math.IsNaN(gtol):
		return 0, 0, 0, 0, 0, fmt.Errorf("solvers: LBFGS.Minimize: GradTol is NaN")
	case gtol == 0:
		gtol = DefaultLBFGSGradTol
	case gtol < 0:
		gtol = -1
	}
	switch {
	case math.IsNaN(ftol):
		return 0, 0, 0, 0, 0, fmt.Errorf("solvers: LBFGS.Minimize: FuncTol is NaN")
	case ftol == 0:
		ftol = DefaultLBFGSFuncTol
	case ftol < 0:
		ftol = math.Inf(-1)
	}
	switch {
	case maxLS < 0:
		return 0, 0, 0, 0, 0, fmt.Errorf("solvers: LBFGS.Minimize: MaxLineSearch = %d, want ≥ 0", maxLS)
	case maxLS == 0:
		maxLS = DefaultLBFGSMaxLineSearch
	}
	return maxIter, mem, gtol, ftol, maxLS, nil
}

// direction computes d = −H·g by the two-loop recursion over the k newest
// pairs (ring of size mem, next slot head). With k == 0, d = −g.
func (l *LBFGS) direction(k, head, mem int) {
	copy(l.d, l.g)
	if k == 0 {
		if l.h0 != nil {
			l.h0(l.d)
		}
		for i := range l.d {
			l.d[i] = -l.d[i]
		}
		return
	}
	n := l.dim
	idx := func(j int) int { return ((head-1-j)%mem + mem) % mem } // j = 0 newest
	for j := 0; j < k; j++ {
		p := idx(j)
		a := float64(l.rho[p] * dot(l.s[p*n:(p+1)*n], l.d))
		l.alpha[j] = a
		axpy(-a, l.y[p*n:(p+1)*n], l.d)
	}
	if l.h0 != nil {
		l.h0(l.d)
	} else {
		p := idx(0)
		yn := l.y[p*n : (p+1)*n]
		gamma := 1 / (l.rho[p] * dot(yn, yn))
		for i := range l.d {
			l.d[i] *= gamma
		}
	}
	for j := k - 1; j >= 0; j-- {
		p := idx(j)
		b := float64(l.rho[p] * dot(l.y[p*n:(p+1)*n], l.d))
		axpy(l.alpha[j]-b, l.s[p*n:(p+1)*n], l.d)
	}
	for i := range l.d {
		l.d[i] = -l.d[i]
	}
}

// lineSearch runs the Moré–Thuente search from l.x along l.d. On success it
// returns the value at the accepted point, which is left in l.xt/l.gt. On
// failure it returns the lowest finite value seen (with its point in
// l.xb/l.gb, or +Inf if none) and whether non-finite values were met.
// Non-finite trial values restart the search with a quarter of the step.
func (l *LBFGS) lineSearch(f func(x, grad []float64) float64, f0, dg0, step float64, maxLS int, evals *int) (fv float64, ok, nonFinite bool) {
	l.ls = moreThuente{
		decreaseFactor:  lsDecrease,
		curvatureFactor: lsCurvature,
		stepTolerance:   lsStepTol,
		maximumStep:     1e20,
	}
	l.ls.init(f0, dg0, step)
	fBest := math.Inf(1)
	for it := 0; it < maxLS; it++ {
		for i := range l.xt {
			l.xt[i] = l.x[i] + float64(step*l.d[i])
		}
		ft := f(l.xt, l.gt)
		*evals++
		if !isFinite(ft) || firstNonFinite(l.gt) >= 0 {
			nonFinite = true
			step *= 0.25
			if !(step > 0) {
				break
			}
			l.ls.init(f0, dg0, step)
			continue
		}
		if ft < fBest {
			fBest = ft
			copy(l.xb, l.xt)
			copy(l.gb, l.gt)
		}
		st, next := l.ls.iterate(ft, dot(l.gt, l.d))
		if st == mtConverged || (st == mtBound && ft < f0) {
			return ft, true, nonFinite
		}
		if st != mtEvaluate {
			break
		}
		step = next
	}
	return fBest, false, nonFinite
}
