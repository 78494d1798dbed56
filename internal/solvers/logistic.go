package solvers

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
)

// Default settings of Logistic; a zero field in LogisticOptions selects them.
const (
	// DefaultLogisticMaxIterations bounds the L-BFGS iterations.
	DefaultLogisticMaxIterations = 1000
	// DefaultLogisticGradTol is the infinity-norm gradient tolerance.
	DefaultLogisticGradTol = 1e-8
)

// LogisticOptions configures Logistic. The zero value selects the defaults.
type LogisticOptions struct {
	// NoIntercept fits w without a bias (bias is returned as 0).
	NoIntercept bool
	// MaxIterations bounds the L-BFGS iterations (0 → 1000; negative is an error).
	MaxIterations int
	// GradTol stops when the infinity norm of the gradient of the objective
	// is ≤ GradTol (0 → 1e-8; negative is an error).
	GradTol float64
	// Memory is the L-BFGS memory (0 → 10; negative is an error).
	Memory int
	// Init, if not nil, is the starting point: the d weights, then the bias
	// unless NoIntercept (len d or d+1). nil starts from zero.
	Init []float64
	// Precondition, if > 0, makes L-BFGS start from the Hessian of the
	// objective at the starting point computed on every k-th row (k =
	// Precondition; rows 0, k, 2k, …; a Cholesky factor of (d+1)² values):
	// its inverse replaces the scalar initial matrix of every two-loop
	// recursion, so the first step is a Newton step on that sample. It
	// costs (n/k)·(d+1)²/2 multiply-adds, about d/(4k) evaluations, and
	// pays when passes over X are dear and the sample has several times
	// d+1 rows (rks: 12 instead of 22 evaluations at n = 10⁴, d = 100,
	// k = 13). 0, or a sampled Hessian that is not positive definite,
	// leaves L-BFGS as it is; negative is an error. LogisticWeighted
	// weights the sampled rows as the objective does.
	Precondition int
	// Info, if non-nil, receives the L-BFGS Result (status, iterations,
	// evaluations, final objective and gradient norm); its X is a copy.
	Info *Result
}

// resolve checks the options for d features and returns the iteration
// bound and gradient tolerance with the defaults filled in. Logistic and
// LogisticWeighted share it, so both accept and refuse the same options.
func (opt LogisticOptions) resolve(d int) (maxIter int, gtol float64, err error) {
	maxIter, gtol = opt.MaxIterations, opt.GradTol
	switch {
	case maxIter < 0:
		return 0, 0, fmt.Errorf("option MaxIterations = %d, want ≥ 0", maxIter)
	case maxIter == 0:
		maxIter = DefaultLogisticMaxIterations
	}
	switch {
	case !(gtol >= 0):
		return 0, 0, fmt.Errorf("option GradTol = %v, want ≥ 0", gtol)
	case gtol == 0:
		gtol = DefaultLogisticGradTol
	}
	if opt.Init != nil {
		if want := d + btoi(!opt.NoIntercept); len(opt.Init) != want {
			return 0, 0, fmt.Errorf("option len(Init) = %d, want %d", len(opt.Init), want)
		}
		if i := firstNonFinite(opt.Init); i >= 0 {
			return 0, 0, fmt.Errorf("option Init[%d] = %v: %w", i, opt.Init[i], ErrNotFinite)
		}
	}
	if opt.Memory < 0 {
		return 0, 0, fmt.Errorf("option Memory = %d, want ≥ 0", opt.Memory)
	}
	if opt.Precondition < 0 {
		return 0, 0, fmt.Errorf("option Precondition = %d, want ≥ 0", opt.Precondition)
	}
	return maxIter, gtol, nil
}

// Logistic fits L2-regularised logistic regression with labels y ∈ {−1, +1}:
//
//	min_{w,b} (1/n) Σ_i log(1 + exp(−y_i (w·x_i + b))) + (λ/2)‖w‖²
//
// (the bias is not penalised) by L-BFGS from w = 0, b = 0, using an overflow-
// free evaluation of log(1+e^{−m}) and of the logistic function. X is n×d
// row-major. The exponentials come from internal/asm (trig's kernels) and the logarithms from
// xmath.Log1p, and no product is fused, so the result has the same bits on
// every architecture.
//
// Not reaching GradTol within MaxIterations (for example separable data with
// λ = 0, whose minimiser is at infinity) is not an error: the last iterate is
// returned and opt.Info reports the status. Errors: shape mismatches, NaN/Inf
// in X, labels other than ±1, λ < 0 or non-finite, invalid options.
func Logistic(X []float64, n, d int, y []float64, lambda float64, opt LogisticOptions) (w []float64, bias float64, err error) {
	// The shape now; NaN and ±Inf in X in the first evaluation (see
	// badX), which saves a pass over X.
	if n <= 0 || d <= 0 || n > math.MaxInt/d || len(X) != n*d {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", checkMatrix("X", X, n, d))
	}
	if err := checkLabels("y", y, n); err != nil {
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
	// One pass over X per evaluation, in blocks of logisticBlock rows: the
	// margins of a block, their exponentials, then the loss and gradient
	// terms while the block's rows are still in cache. The order of every
	// sum is that of the row-by-row loop, so are the bits.
	//
	// The first evaluation, at the finite start, also checks X: a NaN or
	// ±Inf in row i makes its margin NaN or ±Inf (0·Inf is NaN, and a sum
	// that has met an infinity or a NaN never becomes finite again), so
	// only when a first margin is not finite is X scanned (checkMatrix)
	// for the error; if X is finite after all (the margin overflowed),
	// the fit goes on as it always did.
	invN := 1 / float64(n)
	margin, expm := make([]float64, n), make([]float64, n)
	first := true
	var badX error
	obj := func(v, grad []float64) float64 {
		wv := v[:d]
		b := 0.0
		if !opt.NoIntercept {
			b = v[d]
		}
		for j := range grad {
			grad[j] = 0
		}
		var loss float64
		for lo := 0; lo < n; lo += logisticBlock {
			hi := min(n, lo+logisticBlock)
			i := lo
			for ; i+8 <= hi; i += 8 { // eight rows at a time: eight independent chains
				ms := dotRows8(wv, X[i*d:(i+8)*d])
				for q, s := range ms {
					m := y[i+q] * (s + b)
					margin[i+q], expm[i+q] = m, -math.Abs(m)
				}
			}
			for ; i < hi; i++ {
				m := y[i] * (dot(wv, X[i*d:(i+1)*d]) + b)
				margin[i], expm[i] = m, -math.Abs(m)
			}
			if first {
				for _, e := range expm[lo:hi] {
					if !(e >= -math.MaxFloat64) { // −|m| is NaN or −Inf
						first = false
						if badX = checkMatrix("X", X, n, d); badX != nil {
							return math.NaN()
						}
						break
					}
				}
			}
			asm.Exp(expm[lo:hi], expm[lo:hi]) // e^{−|m|}, the same bits everywhere (unlike math.Exp)
			for i := lo; i < hi; i++ {
				m, e := margin[i], expm[i]
				var l, s float64 // loss log(1+e^{−m}) and σ(−m) = 1/(1+e^{m})
				if m > 0 {
					l, s = xmath.Log1p(e), e/(1+e)
				} else {
					l, s = -m+xmath.Log1p(e), 1/(1+e)
				}
				loss += l
				r := float64(-y[i] * s)
				margin[i] = r // the margin is used up: keep the residual for the gradient
				if !opt.NoIntercept {
					grad[d] += r
				}
			}
			i = lo
			for ; i+4 <= hi; i += 4 {
				axpyRows4(margin[i:i+4], X[i*d:(i+4)*d], grad[:d])
			}
			for ; i < hi; i++ {
				axpy(margin[i], X[i*d:(i+1)*d], grad[:d])
			}
		}
		first = false
		for j := range grad {
			grad[j] *= invN
		}
		axpy(lambda, wv, grad[:d])
		return float64(loss*invN) + float64(0.5*lambda*dot(wv, wv))
	}
	x0 := make([]float64, dim)
	if opt.Init != nil {
		copy(x0, opt.Init)
	}
	if opt.Precondition > 0 {
		if c, ok := logisticHessian(X, n, d, y, nil, lambda, x0, !opt.NoIntercept, opt.Precondition); ok {
			lb.h0 = c.solve
		}
	}
	res, err := lb.Minimize(obj, x0, LBFGSOptions{
		MaxIterations: maxIter,
		GradTol:       gtol,
		FuncTol:       -1, // stop on the gradient only
		MaxLineSearch: 40,
	})
	if badX != nil {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", badX)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("solvers: logistic: %w", err)
	}
	w = make([]float64, d)
	copy(w, res.X[:d])
	if !opt.NoIntercept {
		bias = res.X[d]
	}
	if opt.Info != nil {
		*opt.Info = res
		opt.Info.X = append([]float64(nil), res.X...)
	}
	return w, bias, nil
}

// logisticBlock is the number of rows of one block of Logistic's
// evaluation: 256 rows of 100 features (200 KB) stay in the L2 cache
// between the margins and the gradient.
const logisticBlock = 256

// dotRows8 returns the dots of w with the eight rows of x (8×len(w),
// row-major), each summed in index order with rounded products like dot:
// eight independent chains keep the adder busy, and the bits are dot's.
func dotRows8(w, x []float64) (s [8]float64) {
	d := len(w)
	x0, x1, x2, x3 := x[:d], x[d:2*d], x[2*d:3*d], x[3*d:4*d]
	x4, x5, x6, x7 := x[4*d:5*d], x[5*d:6*d], x[6*d:7*d], x[7*d:8*d]
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	for j, v := range w {
		s0 += float64(v * x0[j])
		s1 += float64(v * x1[j])
		s2 += float64(v * x2[j])
		s3 += float64(v * x3[j])
		s4 += float64(v * x4[j])
		s5 += float64(v * x5[j])
		s6 += float64(v * x6[j])
		s7 += float64(v * x7[j])
	}
	return [8]float64{s0, s1, s2, s3, s4, s5, s6, s7}
}

// axpyRows4 adds r[q]·x_q to y for the four rows x_q of x (4×len(y),
// row-major). Each y[j] receives the four rounded products in row order,
// exactly as four calls of axpy would add them, with one load and one
// store of y[j] instead of four.
func axpyRows4(r []float64, x, y []float64) {
	d := len(y)
	r0, r1, r2, r3 := r[0], r[1], r[2], r[3]
	x0, x1, x2, x3 := x[:d], x[d:2*d], x[2*d:3*d], x[3*d:4*d]
	for j, g := range y {
		g += float64(r0 * x0[j])
		g += float64(r1 * x1[j])
		g += float64(r2 * x2[j])
		g += float64(r3 * x3[j])
		y[j] = g
	}
}

// logisticHessian factors the Hessian of Logistic's objective at v (the d
// weights, then the bias if intercept) on the rows 0, k, 2k, … of X:
//
//	(1/m) Σ_i c_i x̃_i x̃_iᵀ + λ·diag(1, …, 1, 0),  c_i = σ(m_i)(1 − σ(m_i)),
//
// with x̃_i = (x_i, 1) (or x_i without an intercept) and the margins m_i =
// y_i(w·x_i + b). With row weights rw (LogisticWeighted's w_i/Σw; nil for
// Logistic) row i counts rw_i/Σ_sample rw instead of 1/m, as in the
// weighted objective (its row scaled by √rw_i too); a sample whose weights
// are all 0 reports false. c_i = e/(1+e)² with e = e^{−|m_i|} (asm.Exp), the rows
// are scaled by √c_i and multiplied by gram, so the bits are the same
// everywhere. It reports false when the matrix is not positive definite
// to working precision.
func logisticHessian(X []float64, n, d int, y, rw []float64, lambda float64, v []float64, intercept bool, k int) (*cholesky, bool) {
	m := (n + k - 1) / k
	dim := d + btoi(intercept)
	w, b := v[:d], 0.0
	if intercept {
		b = v[d]
	}
	e := make([]float64, m)
	for q := range e {
		i := q * k
		e[q] = -math.Abs(y[i] * (dot(w, X[i*d:(i+1)*d]) + b))
	}
	asm.Exp(e, e)
	xt := make([]float64, dim*m) // the scaled rows, transposed
	inv := 1 / float64(m)
	if rw != nil {
		var sum float64
		for q := range e {
			sum += rw[q*k]
		}
		if !(sum > 0) {
			return nil, false
		}
		inv = 1 / sum
	}
	for q, eq := range e {
		r := math.Sqrt(eq) / (1 + eq) // √c
		if rw != nil {
			r = float64(r * math.Sqrt(rw[q*k]))
		}
		row := X[q*k*d : (q*k+1)*d]
		for j, x := range row {
			xt[j*m+q] = float64(r * x)
		}
		if intercept {
			xt[d*m+q] = r
		}
	}
	a := make([]float64, dim*dim)
	gram(a, xt, m, dim, 0, m)
	for j := range dim {
		for l := 0; l <= j; l++ {
			a[j*dim+l] *= inv
		}
		if j < d {
			a[j*dim+j] += lambda
		}
	}
	ch := new(cholesky)
	return ch, ch.factorize(a, dim)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
