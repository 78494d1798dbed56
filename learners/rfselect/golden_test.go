package rfselect_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rfselect"
)

// TestGolden: models trained on any machine and path serialise to the bytes
// in testdata (written on amd64; checked under qemu on arm64, with NEON and
// with -tags purego). Regenerate with go test -run Golden -update.
func TestGolden(t *testing.T) {
	moons, se1 := learnertest.GoldenSets()
	learnertest.GoldenFits(t, rfselect.Fit, []learnertest.GoldenFit[rfselect.Config]{
		{Name: "eerf-logistic", Set: moons, Config: rfselect.Config{Features: 20, Seed: 3}},
		{Name: "lkrf-logistic", Set: moons, Config: rfselect.Config{Selection: rfselect.LKRFSelection, Features: 20, Seed: 3}},
		{Name: "eerf-ridge", Set: se1, Config: rfselect.Config{Features: 20, Task: learners.Regression, Lambda: 1e-4, Seed: 4}},
	})
}
