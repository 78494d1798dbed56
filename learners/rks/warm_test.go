package rks

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestPreconditionedGolden: the logistic head with its sampled-Hessian
// start (3000 rows of 20 features: every 10th row, 300 ≥ 5·21) gives the
// bytes of testdata/logistic-precond.model on every path and architecture
// (the conformance goldens are too small to use it). Regenerate with
// go test -run PreconditionedGolden ./learners/rks -update.
func TestPreconditionedGolden(t *testing.T) {
	n, D := 3000, 20
	if k := solvers.PreconditionStride(n, D); k == 0 {
		t.Fatalf("PreconditionStride(%d, %d) = 0: the test does not reach the preconditioned head", n, D)
	}
	X, y := learnertest.Rings(n, 1, 0, 1, 11)
	m, err := Fit(context.Background(), X, y, Config{Features: D, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "logistic-precond", learnertest.Bytes(t, m))
}
