package solvers

import (
	"math"
	"testing"
)

// TestLBFGSPredictedStop: the predicted-decrease stop (PredictedStop) saves
// evaluations on Rosenbrock, stops only where the model predicts a gain
// below the tolerance (checked by running on from the point it returned),
// never before the first iteration, and changes nothing when FuncTol is
// disabled.
func TestLBFGSPredictedStop(t *testing.T) {
	const dim = 10
	x0 := make([]float64, dim)
	for i := range x0 {
		x0[i] = -1.2
		if i%2 == 1 {
			x0[i] = 1
		}
	}
	run := func(opt LBFGSOptions, start []float64) Result {
		t.Helper()
		l, err := NewLBFGS(dim, 0)
		if err != nil {
			t.Fatal(err)
		}
		res, err := l.Minimize(rosenbrock, start, opt)
		if err != nil {
			t.Fatal(err)
		}
		res.X = append([]float64(nil), res.X...)
		return res
	}

	// Disabled FuncTol: the option must not change a single bit.
	a := run(LBFGSOptions{MaxIterations: 200, FuncTol: -1}, x0)
	b := run(LBFGSOptions{MaxIterations: 200, FuncTol: -1, PredictedStop: true}, x0)
	if a.Evaluations != b.Evaluations || a.Iterations != b.Iterations || math.Float64bits(a.F) != math.Float64bits(b.F) {
		t.Errorf("FuncTol disabled: PredictedStop changed the run: %+v vs %+v", a, b)
	}

	const tol = 1e-4
	plain := run(LBFGSOptions{MaxIterations: 200, FuncTol: tol}, x0)
	pred := run(LBFGSOptions{MaxIterations: 200, FuncTol: tol, PredictedStop: true}, x0)
	t.Logf("FuncTol %g: plain %d iterations %d evaluations f %.3g; predicted stop %d iterations %d evaluations f %.3g",
		tol, plain.Iterations, plain.Evaluations, plain.F, pred.Iterations, pred.Evaluations, pred.F)
	if pred.Status != StatusFuncConverged {
		t.Fatalf("predicted stop: status %v, want %v", pred.Status, StatusFuncConverged)
	}
	if pred.Evaluations >= plain.Evaluations {
		t.Errorf("predicted stop: %d evaluations, plain rule %d: nothing saved", pred.Evaluations, plain.Evaluations)
	}
	// The iterates are the plain rule's up to the stop: the predicted stop
	// only ends the search earlier.
	if pred.Iterations > plain.Iterations {
		t.Errorf("predicted stop ran %d iterations, plain rule %d", pred.Iterations, plain.Iterations)
	}
	// Where it stopped, one more iteration of the plain rule gains little:
	// the model's prediction was below tol·max(|f|, 1), and on Rosenbrock
	// near its valley the true gain stays within a small multiple of it.
	on := run(LBFGSOptions{MaxIterations: 1, FuncTol: -1}, pred.X)
	if gain := pred.F - on.F; gain > 10*tol*math.Max(math.Abs(pred.F), 1) {
		t.Errorf("predicted stop at f = %g, but one more iteration gains %g (tolerance %g)", pred.F, gain, tol)
	}

	// Never before the first iteration: there is no curvature pair yet.
	huge := run(LBFGSOptions{MaxIterations: 200, FuncTol: 1e9, PredictedStop: true}, x0)
	if huge.Iterations != 1 {
		t.Errorf("FuncTol 1e9: %d iterations, want 1 (the predicted stop needs a correction pair)", huge.Iterations)
	}
}
