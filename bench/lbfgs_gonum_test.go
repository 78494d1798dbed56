package bench

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/internal/solvers"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/optimize/functions"
)

// TestLBFGSMatchesGonum: solvers' L-BFGS reaches the minimum gonum's
// optimize.LBFGS reaches on gonum's standard test functions. It lives in
// the bench module so that the library's go.mod does not need gonum.
func TestLBFGSMatchesGonum(t *testing.T) {
	cases := []struct {
		name string
		f    func(x, g []float64) float64
		x0   []float64
	}{
		{"ExtendedRosenbrock", func(x, g []float64) float64 {
			var p functions.ExtendedRosenbrock
			p.Grad(g, x)
			return p.Func(x)
		}, []float64{-1.2, 1, -1.2, 1}},
		{"Beale", func(x, g []float64) float64 {
			var p functions.Beale
			p.Grad(g, x)
			return p.Func(x)
		}, []float64{1, 1}},
		{"Wood", func(x, g []float64) float64 {
			var p functions.Wood
			p.Grad(g, x)
			return p.Func(x)
		}, []float64{-3, -1, -3, -1}},
		{"PowellBadlyScaled", func(x, g []float64) float64 {
			var p functions.PowellBadlyScaled
			p.Grad(g, x)
			return p.Func(x)
		}, []float64{0, 1}},
		{"Trigonometric", func(x, g []float64) float64 {
			var p functions.Trigonometric
			p.Grad(g, x)
			return p.Func(x)
		}, []float64{0.2, 0.2, 0.2, 0.2, 0.2}},
	}
	for _, c := range cases {
		l, _ := solvers.NewLBFGS(len(c.x0), 0)
		res, err := l.Minimize(c.f, c.x0, solvers.LBFGSOptions{MaxIterations: 5000, GradTol: 1e-10, FuncTol: -1})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p := optimize.Problem{
			Func: func(x []float64) float64 { return c.f(x, make([]float64, len(x))) },
			Grad: func(g, x []float64) { c.f(x, g) },
		}
		ref, err := optimize.Minimize(p, c.x0, &optimize.Settings{GradientThreshold: 1e-10}, &optimize.LBFGS{})
		if err != nil {
			t.Fatalf("%s: gonum: %v", c.name, err)
		}
		if math.Abs(res.F-ref.F) > 1e-8*math.Max(1, math.Abs(ref.F)) {
			t.Errorf("%s: f = %.12g, gonum %.12g", c.name, res.F, ref.F)
		}
		t.Logf("%s: f = %.6g (%d it, %d ev, %v), gonum f = %.6g (%d it)", c.name, res.F, res.Iterations, res.Evaluations, res.Status, ref.F, ref.Stats.MajorIterations)
	}
}
