package pbrff

import (
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/learners/learnertest"
)

// TestGolden: models trained on any machine and path serialise to the bytes
// in testdata (written on amd64; make test checks them with every amd64
// path, with -tags purego, and under qemu on arm64 with NEON and purego).
// Regenerate with go test -run Golden -update.
func TestGolden(t *testing.T) {
	tr := must(synth.Checkerboard(300, 0.05, 5))
	for _, loss := range []Loss{Hinge, SquaredHinge, Logistic} {
		got := marshal(t, fit(t, tr, Config{Landmarks: 20, K: 5, Gamma: 3, C: 10, Loss: loss, Seed: 3}))
		learnertest.Golden(t, string(loss), got)

	}
}
