package rks_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestGolden: models trained on any machine and path serialise to the bytes
// in testdata (written on amd64; checked under qemu on arm64, with NEON and
// with -tags purego). The data come from package synth, whose output is
// bit-identical everywhere, and every step of Fit is too: the
// standardisation (prep), the frequency draws (internal/xrand), the
// features (asm.CosAffine), L-BFGS with its Moré–Thuente line search and
// the logistic loss (trig.Exp, xmath.Log1p), and the ridge Gram matrix and
// Cholesky solve (package solvers, fixed order, no fused products).
// Regenerate with go test -run Golden ./learners/rks -update.
func TestGolden(t *testing.T) {
	moons, se1 := learnertest.GoldenSets()
	learnertest.GoldenFits(t, rks.Fit, []learnertest.GoldenFit[rks.Config]{
		{Name: "logistic", Set: moons, Config: rks.Config{Features: 40, Seed: 3}},
		{Name: "ridge", Set: se1, Config: rks.Config{Features: 40, Task: learners.Regression, Lambda: 1e-4, Seed: 4}},
		{Name: "binary-ridge", Set: moons, Config: rks.Config{Features: 30, Loss: rks.Ridge, Seed: 5}},
	})
}
