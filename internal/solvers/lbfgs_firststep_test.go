package solvers

import (
	"math"
	"testing"
)

// TestLBFGSFirstStep: FirstStep sets the first trial step. On
// f(x) = (a/2)‖x‖² from x0 the step 1/a along −g lands on the minimum, so
// the first line search takes one evaluation; the default unit-length
// step does not. A step that is not finite and > 0 falls back to the
// default, and FirstStep is asked once, with f and g at x0.
func TestLBFGSFirstStep(t *testing.T) {
	const a = 7.0
	quad := func(x, g []float64) float64 {
		var s float64
		for i, v := range x {
			g[i] = a * v
			s += v * v
		}
		return a / 2 * s
	}
	x0 := []float64{3, -4, 12}
	run := func(first func(float64, []float64) float64) Result {
		lb, err := NewLBFGS(len(x0), 5)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lb.Minimize(quad, x0, LBFGSOptions{MaxIterations: 1, FirstStep: first})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	calls := 0
	res := run(func(f float64, g []float64) float64 {
		calls++
		if f != a/2*169 || g[0] != a*3 {
			t.Errorf("FirstStep(%v, %v): want f and g at x0", f, g)
		}
		return 1 / a
	})
	if calls != 1 || res.Evaluations != 2 || math.Abs(res.F) > 1e-20 {
		t.Errorf("step 1/a: %d calls, %d evaluations, f = %v; want 1, 2 and 0", calls, res.Evaluations, res.F)
	}
	def := run(nil)
	if def.Evaluations <= 2 && def.F == 0 {
		t.Errorf("default step: %d evaluations, f = %v: the unit step should not land on the minimum", def.Evaluations, def.F)
	}
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if got := run(func(float64, []float64) float64 { return bad }); got.F != def.F || got.Evaluations != def.Evaluations || got.Iterations != def.Iterations {
			t.Errorf("FirstStep %v: %+v, want the default's %+v", bad, got, def)
		}
	}
}
