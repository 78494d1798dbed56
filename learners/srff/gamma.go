package srff

import (
	"context"
	"math"

	"github.com/rfkit/rfkit/internal/solvers"
)

// gammaStep minimises the γ-step objective ev.value (a fixed) over the
// simplex {γ ≥ 0, Σγ = s} from gamma, in place, by monotone FISTA (Beck and
// Teboulle 2009) with backtracking on the Lipschitz constant L, and returns
// the number of iterations, or ctx's error (checked after every iteration)
// once ctx is cancelled; gamma then holds the last accepted point.
//
// It is solvers.FISTASimplex specialised to SRFF in two ways. Trial points
// of the backtracking are evaluated without the gradient (the gradient is
// only needed at the extrapolated points, and a value costs a third of a
// value with gradient). And it stops by the rule of the authors' code:
// when the last four decreases of the objective sum to less than
// tol·|f| (or after maxIter iterations), rather than on the step length.
//
// L starts where the first projected-gradient step moves the largest
// coordinate by the mean coordinate s/d (backtracking only ever raises L,
// so it must start low), or, if lip is not nil and *lip > 0, at half the
// L the previous γ-step of the fit ended with; on return *lip holds this
// step's final L. Within one fit the curvature of the γ-step objective
// changes slowly, while the first rule's step is a fixed move whose
// backtracking, near convergence, cost several evaluations every γ-step.
func gammaStep(ctx context.Context, ev *evaluator, gamma []float64, s float64, maxIter int, tol float64, lip *float64) (int, error) {
	d := len(gamma)
	buf := make([]float64, 6*d)
	x, xPrev, y, gy := buf[:d], buf[d:2*d], buf[2*d:3*d], buf[3*d:4*d]
	z, v := buf[4*d:5*d], buf[5*d:6*d]
	copy(x, gamma)
	fx := ev.value(x, gy)
	if !isFinite(fx) || !allFinite(gy) {
		return 0, nil
	}
	L := startLipschitz(gy, s, d)
	if lip != nil {
		if *lip > 0 {
			L = *lip / 2
		}
		defer func() { *lip = L }()
	}
	copy(y, x)
	fy, t := fx, 1.0
	hist := []float64{fx}
	it := 0
	for it < maxIter {
		fz, ok := proxStep(ev, z, v, y, gy, fy, s, &L)
		if !ok {
			copy(gamma, x)
			return it, nil
		}
		it++
		copy(xPrev, x)
		if fz <= fx { // monotone: x only moves downhill
			copy(x, z)
			fx = fz
		}
		hist = append(hist, fx)
		if k := len(hist); k >= 5 && hist[k-5]-hist[k-1] < tol*math.Abs(hist[k-1]) {
			break
		}
		if it == maxIter {
			break
		}
		if err := ctx.Err(); err != nil {
			copy(gamma, x)
			return it, err
		}
		tNext := 0.5 * (1 + math.Sqrt(1+float64(4*t*t)))
		a, b := t/tNext, (t-1)/tNext
		for k := range y {
			y[k] = x[k] + float64(a*(z[k]-x[k])) + float64(b*(x[k]-xPrev[k]))
		}
		t = tNext
		// The extrapolated y may leave the simplex (it stays in its affine
		// hull); the objective is defined there. If it is not finite,
		// restart the momentum from x.
		fy = ev.value(y, gy)
		if !isFinite(fy) || !allFinite(gy) {
			copy(y, x)
			fy = ev.value(y, gy)
			t = 1
		}
	}
	copy(gamma, x)
	return it, nil
}

// proxStep is the backtracking projected-gradient step from y (gradient
// gy, γ-step objective fy) with Lipschitz estimate *L: z = P(y − gy/L),
// the Euclidean projection onto the simplex of size s, with L doubled
// until ev.value(z) ≤ fy + gyᵀ(z − y) + (L/2)‖z − y‖² (plus a slack of
// 1e-12·(1 + |fy|)). Trial points are evaluated without the gradient. It
// returns ev.value(z) and true, leaving the features at z in ev (v is
// scratch), or false if the projection fails (a NaN or Inf gradient) or L
// overflows.
func proxStep(ev *evaluator, z, v, y, gy []float64, fy, s float64, L *float64) (float64, bool) {
	for {
		for k := range z {
			v[k] = y[k] - gy[k]/(*L)
		}
		if solvers.ProjectSimplex(z, v, s) != nil {
			return 0, false
		}
		fz := ev.value(z, nil)
		var lin, sq float64
		for k := range z {
			dz := z[k] - y[k]
			lin += float64(gy[k] * dz)
			sq += float64(dz * dz)
		}
		slack := float64(1e-12 * (1 + math.Abs(fy)))
		if isFinite(fz) && fz <= fy+lin+float64(0.5*(*L)*sq)+slack {
			return fz, true
		}
		*L *= 2
		if math.IsInf(*L, 0) {
			return 0, false
		}
	}
}

// startLipschitz is the first Lipschitz estimate of a γ-step at a point
// of gradient g on the simplex of size s over d inputs: the L at which
// the projected-gradient step moves the largest coordinate by the mean
// coordinate s/d (backtracking only ever raises L, so it must start low).
func startLipschitz(g []float64, s float64, d int) float64 {
	var gmax float64
	for _, v := range g {
		gmax = math.Max(gmax, math.Abs(v))
	}
	L := gmax / (s / float64(d))
	if !(L > 1e-12) || math.IsInf(L, 0) {
		L = 1e-12
	}
	return L
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func allFinite(v []float64) bool {
	for _, x := range v {
		if !isFinite(x) {
			return false
		}
	}
	return true
}
