package srff

import (
	"context"
	"math"

	"github.com/rfkit/rfkit/solvers"
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
	var gmax float64
	for _, g := range gy {
		gmax = math.Max(gmax, math.Abs(g))
	}
	L := gmax / (s / float64(d))
	if !(L > 1e-12) || math.IsInf(L, 0) {
		L = 1e-12
	}
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
		// Backtracking at y, values only.
		var fz float64
		for {
			for k := range z {
				v[k] = y[k] - gy[k]/L
			}
			if solvers.ProjectSimplex(z, v, s) != nil {
				copy(gamma, x) // only a NaN or Inf gradient gets here
				return it, nil
			}
			fz = ev.value(z, nil)
			var lin, sq float64
			for k := range z {
				dz := z[k] - y[k]
				lin += float64(gy[k] * dz)
				sq += float64(dz * dz)
			}
			slack := float64(1e-12 * (1 + math.Abs(fy)))
			if isFinite(fz) && fz <= fy+lin+float64(0.5*L*sq)+slack {
				break
			}
			L *= 2
			if math.IsInf(L, 0) {
				copy(gamma, x)
				return it, nil
			}
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

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func allFinite(v []float64) bool {
	for _, x := range v {
		if !isFinite(x) {
			return false
		}
	}
	return true
}
