package prff_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/prff"
)

// TestGolden: models trained on any machine and path serialise to the bytes
// in testdata (written on amd64; checked under qemu on arm64, with NEON and
// with -tags purego). Regenerate with go test -run Golden -update.
func TestGolden(t *testing.T) {
	moons, se1 := learnertest.GoldenSets()
	learnertest.GoldenFits(t, prff.Fit, []learnertest.GoldenFit[prff.Config]{
		{Name: "logistic", Set: moons, Config: prff.Config{Features: 10, MaxIter: 20, Seed: 3}},
		{Name: "ridge", Set: se1, Config: prff.Config{Features: 10, MaxIter: 20, Task: learners.Regression, Lambda: 1e-4, Seed: 4}},
	})
}
