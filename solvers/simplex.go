package solvers

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ProjectSimplex writes into dst the Euclidean projection of v onto the
// scaled simplex {x : x ≥ 0, Σx = s}, by the sort-based algorithm (Held,
// Wolfe and Crowder 1974; Duchi et al. 2008), O(n log n).
//
// dst and v must have the same length; dst may be v itself (then a scratch
// copy is allocated) but must not otherwise overlap it. Errors: length
// mismatch, empty v, NaN/Inf in v, s ≤ 0 or non-finite.
func ProjectSimplex(dst, v []float64, s float64) error {
	if err := checkSimplexArgs(dst, v, s); err != nil {
		return fmt.Errorf("solvers: ProjectSimplex: %w", err)
	}
	scratch := dst
	if &dst[0] == &v[0] {
		scratch = make([]float64, len(v))
	}
	projectSimplex(dst, v, scratch, s)
	return nil
}

func checkSimplexArgs(dst, v []float64, s float64) error {
	if len(v) == 0 {
		return errors.New("empty vector")
	}
	if len(dst) != len(v) {
		return fmt.Errorf("len(dst) = %d, want len(v) = %d", len(dst), len(v))
	}
	if !(s > 0) || math.IsInf(s, 0) {
		return fmt.Errorf("simplex size s = %v, want finite and > 0", s)
	}
	if i := firstNonFinite(v); i >= 0 {
		return fmt.Errorf("v[%d] = %v: %w", i, v[i], ErrNotFinite)
	}
	return nil
}

// projectSimplex is ProjectSimplex without checks; scratch (len(v)) must not
// alias v, and may alias dst.
func projectSimplex(dst, v, scratch []float64, s float64) {
	copy(scratch, v)
	slices.Sort(scratch) // ascending; walk from the largest
	var cum, theta float64
	n := len(scratch)
	for j := 1; j <= n; j++ {
		u := scratch[n-j]
		cum += u
		t := (cum - s) / float64(j)
		if u-t > 0 {
			theta = t
		} else {
			break
		}
	}
	for i, x := range v {
		dst[i] = math.Max(x-theta, 0)
	}
}

// Default settings of FISTASimplex; a zero field in FISTAOptions selects them.
const (
	// DefaultFISTAMaxIterations bounds the iterations.
	DefaultFISTAMaxIterations = 100
	// DefaultFISTATol is the relative tolerance on the projected-gradient step.
	DefaultFISTATol = 1e-8
	// DefaultFISTAL0 is the initial Lipschitz estimate.
	DefaultFISTAL0 = 1
	// DefaultFISTAEta is the backtracking growth factor of L.
	DefaultFISTAEta = 2
)

// FISTAOptions configures FISTASimplex. The zero value selects the defaults.
type FISTAOptions struct {
	// MaxIterations bounds the iterations (0 → 100; negative is an error).
	MaxIterations int
	// Tol stops when the projected-gradient step ‖z − y‖∞ is ≤
	// Tol·max(1, ‖y‖∞) (0 → 1e-8; negative is an error).
	Tol float64
	// L0 is the initial Lipschitz estimate (0 → 1; negative is an error).
	// Passing the final L of a previous, similar problem saves backtracking.
	L0 float64
	// Eta > 1 multiplies L on each backtracking step (0 → 2).
	Eta float64
}

// FISTASimplex minimises a smooth f over the scaled simplex {x ≥ 0, Σx = s}
// by monotone FISTA (MFISTA, Beck and Teboulle 2009) with backtracking on the
// Lipschitz constant L, starting from the projection of x0 (not modified).
// f returns f(x) and writes ∇f(x) into grad; it must not retain the slices.
// f is also evaluated at extrapolated points y of the simplex's affine hull
// (possibly with small negative entries), so it must be defined there.
//
// Each iteration takes z = P(y − ∇f(y)/L), doubling L (by Eta) until
// f(z) ≤ f(y) + ⟨∇f(y), z−y⟩ + (L/2)‖z−y‖²; the iterate x only moves when f
// decreases, so f(x) is monotone even for a non-convex f. Result.X is a
// fresh slice holding the best point; Result.GradNorm is L·‖z − y‖∞ at the
// last step; StatusGradConverged means the Tol test held.
//
// Errors: invalid options, s ≤ 0, NaN/Inf in x0, non-finite f or gradient
// at the start (wrapping ErrNotFinite). A non-finite f at a trial point is
// treated as a failed sufficient-decrease test; if L overflows the best
// point is returned with StatusLineSearchFailure.
func FISTASimplex(f func(x, grad []float64) float64, x0 []float64, s float64, opt FISTAOptions) (Result, error) {
	if f == nil {
		return Result{}, errors.New("solvers: FISTASimplex: nil objective")
	}
	if err := checkSimplexArgs(x0, x0, s); err != nil {
		return Result{}, fmt.Errorf("solvers: FISTASimplex: %w", err)
	}
	maxIter, tol, L, eta := opt.MaxIterations, opt.Tol, opt.L0, opt.Eta
	switch {
	case maxIter < 0:
		return Result{}, fmt.Errorf("solvers: FISTASimplex: MaxIterations = %d, want ≥ 0", maxIter)
	case !(tol >= 0):
		return Result{}, fmt.Errorf("solvers: FISTASimplex: Tol = %v, want ≥ 0", tol)
	case !(L >= 0) || math.IsInf(L, 0):
		return Result{}, fmt.Errorf("solvers: FISTASimplex: L0 = %v, want finite and ≥ 0", L)
	case eta != 0 && (!(eta > 1) || math.IsInf(eta, 0)):
		return Result{}, fmt.Errorf("solvers: FISTASimplex: Eta = %v, want finite and > 1", eta)
	}
	if maxIter == 0 {
		maxIter = DefaultFISTAMaxIterations
	}
	if tol == 0 {
		tol = DefaultFISTATol
	}
	if L == 0 {
		L = DefaultFISTAL0
	}
	if eta == 0 {
		eta = DefaultFISTAEta
	}

	n := len(x0)
	buf := make([]float64, 9*n)
	x, gx, xPrev := buf[0:n], buf[n:2*n], buf[2*n:3*n]
	y, gy := buf[3*n:4*n], buf[4*n:5*n]
	z, gz, scratch := buf[5*n:6*n], buf[6*n:7*n], buf[7*n:8*n]
	v := buf[8*n : 9*n]

	projectSimplex(x, x0, scratch, s)
	fx := f(x, gx)
	res := Result{X: x, F: fx, Evaluations: 1}
	if !isFinite(fx) {
		return res, fmt.Errorf("solvers: FISTASimplex: objective at the projected x0 is %v: %w", fx, ErrNotFinite)
	}
	if i := firstNonFinite(gx); i >= 0 {
		return res, fmt.Errorf("solvers: FISTASimplex: gradient[%d] at the projected x0 is %v: %w", i, gx[i], ErrNotFinite)
	}
	copy(y, x)
	copy(gy, gx)
	fy := fx
	t := 1.0
	res.Status = StatusMaxIterations
	for res.Iterations < maxIter {
		// Backtracking at y.
		var fz, step float64
		for {
			for i := range z {
				v[i] = y[i] - gy[i]/L
			}
			projectSimplex(z, v, scratch, s)
			fz = f(z, gz)
			res.Evaluations++
			var lin, sq float64
			step = 0
			for i := range z {
				dz := z[i] - y[i]
				lin += float64(gy[i] * dz)
				sq += float64(dz * dz)
				step = math.Max(step, math.Abs(dz))
			}
			slack := float64(1e-12 * (1 + math.Abs(fy)))
			if isFinite(fz) && firstNonFinite(gz) < 0 && fz <= fy+lin+float64(0.5*L*sq)+slack {
				break
			}
			L *= eta
			if math.IsInf(L, 0) {
				res.Status = StatusLineSearchFailure
				return res, nil
			}
		}
		res.Iterations++
		res.GradNorm = L * step

		// Monotone update.
		copy(xPrev, x)
		moved := fz <= fx
		if moved {
			copy(x, z)
			copy(gx, gz)
			fx = fz
		}
		res.F = fx
		if step <= tol*math.Max(1, normInf(y)) {
			res.Status = StatusGradConverged
			break
		}
		tNext := 0.5 * (1 + math.Sqrt(1+float64(4*t*t)))
		a, b := t/tNext, (t-1)/tNext
		for i := range y {
			y[i] = x[i] + float64(a*(z[i]-x[i])) + float64(b*(x[i]-xPrev[i]))
		}
		t = tNext
		// The extrapolated y may lie outside the simplex (in its affine
		// hull); only the projection of a gradient step from y is used.
		fy = f(y, gy)
		res.Evaluations++
		if !isFinite(fy) || firstNonFinite(gy) >= 0 {
			// Extrapolated point is bad: restart the momentum from x.
			copy(y, x)
			copy(gy, gx)
			fy = fx
			t = 1
		}
	}
	return res, nil
}
