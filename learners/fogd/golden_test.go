package fogd_test

import (
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestGolden: the golden contract of learnertest.GoldenModels. The
// bit-identical steps: the frequencies (internal/xrand), the features
// (asm.SincosDot), Fit's standardisation (prep) and the scalar sums, written
// with explicit FMAs and products rounded on their own. The v1-*.model files
// are these cases written by version 1 of the format (before the Learner's
// state was stored), kept, not regenerated: TestVersion1Files and the
// conformance suite check that they load, re-save and predict the same.
// The golden Fits are lines of the conformance suite (Case.Golden).
func TestGolden(t *testing.T) {
	moons, se1 := learnertest.GoldenSets()
	online := func(set *synth.Set, cfg fogd.Config) *fogd.Model {
		return learnertest.Stream(t, fogd.NewLearner, set, set.Y, cfg, 2)
	}
	reg, off := learners.Regression, learners.Disabled
	learnertest.GoldenModels(t, []learnertest.Named[*fogd.Model]{
		{Name: "online-hinge", Model: online(moons, fogd.Config{Features: 20, Eta: 0.5, Gamma: 2, Seed: 3})},
		{Name: "online-squared", Model: online(se1, fogd.Config{Task: reg, Features: 24, Gamma: 0.05, Seed: 4})},
		{Name: "fit-resumed-file-order", Model: learnertest.ResumedFit(t, fogd.Fit, fogd.Load, moons, 170,
			fogd.Config{Features: 20, Eta: 0.5, Epochs: 1, Seed: 7, Shuffle: off, Standardize: off})},
	})
}
