package solvers

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMoreThuenteWolfe drives the line search (a copy of gonum's
// optimize.MoreThuente) on random 1-D functions with a descent direction at
// 0: whenever it reports convergence, the step satisfies the strong Wolfe
// conditions it was given, and it converges on most of them.
func TestMoreThuenteWolfe(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	var tried, converged int
	// φ(a) = c·(a − m)² + s·sin(k·a) + e·a⁴, a descent direction at 0.
	for trial := 0; trial < 400; trial++ {
		c, m := 0.1+5*r.Float64(), 0.01+20*r.Float64()
		s, k, e := 2*r.Float64(), 0.5+10*r.Float64(), 0.01*r.Float64()
		phi := func(a float64) (float64, float64) {
			d := a - m
			return c*d*d + s*math.Sin(k*a) + e*a*a*a*a, 2*c*d + s*k*math.Cos(k*a) + 4*e*a*a*a
		}
		f0, g0 := phi(0)
		if !(g0 < 0) {
			continue
		}
		tried++
		step := math.Exp(8 * (r.Float64() - 0.5))
		loc := moreThuente{decreaseFactor: lsDecrease, curvatureFactor: lsCurvature, stepTolerance: lsStepTol, maximumStep: 1e20}
		loc.init(f0, g0, step)
		for it := 0; it < 30; it++ {
			f, g := phi(step)
			st, next := loc.iterate(f, g)
			if st == mtConverged {
				converged++
				if f > f0+lsDecrease*step*g0 || math.Abs(g) > lsCurvature*math.Abs(g0) {
					t.Fatalf("trial %d: converged at step %v with φ = %v, φ' = %v (φ(0) = %v, φ'(0) = %v): not strong Wolfe", trial, step, f, g, f0, g0)
				}
			}
			if st != mtEvaluate {
				break
			}
			step = next
		}
	}
	if converged < tried*9/10 {
		t.Errorf("converged on %d of %d descent problems", converged, tried)
	}
}
