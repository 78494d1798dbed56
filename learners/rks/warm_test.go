package rks

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestWarmStart: from the subsample's solution the logistic head reaches the
// minimiser it reaches from zero (to the solver's tolerance).
func TestWarmStart(t *testing.T) {
	n, D, lambda := warmStride*warmRows, 10, 1e-3
	r := rand.New(rand.NewPCG(1, 2))
	z, y := make([]float64, n*D), make([]float64, n)
	for i := range n {
		var s float64
		for j := range D {
			v := r.NormFloat64() / 3
			z[i*D+j] = v
			s += v * float64(j%3-1)
		}
		y[i] = -1
		if s+0.3*r.NormFloat64() > 0 {
			y[i] = 1
		}
	}
	init, err := warmStart(z, n, D, y, lambda)
	if err != nil {
		t.Fatal(err)
	}
	if len(init) != D+1 {
		t.Fatalf("warm start has %d values, want %d", len(init), D+1)
	}
	var cold, warm solvers.Result
	w0, b0, err := solvers.Logistic(z, n, D, y, lambda, solvers.LogisticOptions{Memory: logisticMemory, Info: &cold})
	if err != nil {
		t.Fatal(err)
	}
	w1, b1, err := solvers.Logistic(z, n, D, y, lambda, solvers.LogisticOptions{Memory: logisticMemory, Init: init, Info: &warm})
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range append(w1, b1) {
		ref := append(w0, b0)[j]
		if math.Abs(v-ref) > 1e-6*(1+math.Abs(ref)) {
			t.Errorf("coefficient %d: warm %v, cold %v", j, v, ref)
		}
	}
	t.Logf("evaluations: cold %d, warm %d (after the subsample's)", cold.Evaluations, warm.Evaluations)
}

// TestPreconditionedGolden: the logistic head with its sampled-Hessian
// start (3000 rows of 20 features: every 10th row, 300 ≥ 5·21) gives the
// bytes of testdata/logistic-precond.model on every path and architecture
// (the conformance goldens are too small to use it). Regenerate with
// go test -run PreconditionedGolden ./learners/rks -update.
func TestPreconditionedGolden(t *testing.T) {
	n, D := 3000, 20
	if k := preconditionStride(n, D); k == 0 {
		t.Fatalf("preconditionStride(%d, %d) = 0: the test does not reach the preconditioned head", n, D)
	}
	X, y := learnertest.Rings(n, 1, 0, 1, 11)
	m, err := Fit(context.Background(), X, y, Config{Features: D, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "logistic-precond", learnertest.Bytes(t, m))
}
