package solvers

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/optimize"
)

// TestMoreThuenteMatchesGonum drives the local copy and gonum's
// optimize.MoreThuente with the same 1-D functions. On amd64, where the Go
// compiler never fuses a*b+c, every step must have the same bits (the copy
// only adds float64() conversions); elsewhere gonum's own steps are fused
// differently, so they must agree to a relative 1e-9.
func TestMoreThuenteMatchesGonum(t *testing.T) {
	exact := runtime.GOARCH == "amd64"
	r := rand.New(rand.NewPCG(1, 9))
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
		step := math.Exp(8 * (r.Float64() - 0.5))
		ref := optimize.MoreThuente{DecreaseFactor: lsDecrease, CurvatureFactor: lsCurvature, StepTolerance: lsStepTol, MaximumStep: 1e20}
		ref.Init(f0, g0, step)
		loc := moreThuente{decreaseFactor: lsDecrease, curvatureFactor: lsCurvature, stepTolerance: lsStepTol, maximumStep: 1e20}
		loc.init(f0, g0, step)
		for it := 0; it < 30; it++ {
			f, g := phi(step)
			op, next, err := ref.Iterate(f, g)
			st, lnext := loc.iterate(f, g)
			var want mtStatus
			switch {
			case err == nil && op == optimize.MajorIteration:
				want = mtConverged
			case errors.Is(err, optimize.ErrLinesearcherBound):
				want = mtBound
			case err != nil:
				want = mtFailure
			default:
				want = mtEvaluate
			}
			if st != want {
				if exact {
					t.Fatalf("trial %d, iteration %d: status %v, gonum %v (%v)", trial, it, st, want, err)
				}
				break
			}
			same := math.Float64bits(next) == math.Float64bits(lnext)
			if !same && (exact || math.Abs(next-lnext) > 1e-9*math.Abs(next)) {
				t.Fatalf("trial %d, iteration %d: step %v, gonum %v", trial, it, lnext, next)
			}
			if st != mtEvaluate || !same {
				break
			}
			step = next
		}
	}
}
