package rrf_test

import (
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rrf"
)

// TestGolden: the golden contract of learnertest.GoldenModels, for the
// online step (binary, multiclass, regression, fixed widths) and a Fit
// resumed over a restart; Fits with single-sample and mini-batch steps are
// lines of the conformance suite (Case.Golden). The bit-identical steps:
// the noise (internal/xrand), the phases and their sines and cosines
// (asm.SincosDot), the width gradient (asm.DotStats), the widths and the
// logistic derivative (trig.Exp), Fit's standardisation (prep), and the
// scalar sums, written with explicit FMAs and products rounded apart.
func TestGolden(t *testing.T) {
	moons, se1 := learnertest.GoldenSets()
	// Three classes from the moons' inputs (comparisons only: exact).
	three := make([]float64, moons.N)
	for i := range three {
		x := moons.Row(i)
		switch {
		case x[0] < 0.2:
			three[i] = 0
		case x[1] < 0.25:
			three[i] = 1
		default:
			three[i] = 2
		}
	}
	online := func(set *synth.Set, y []float64, cfg rrf.Config) *rrf.Model {
		return learnertest.Stream(t, rrf.NewLearner, set, y, cfg, 2)
	}
	reg := learners.Regression
	learnertest.GoldenModels(t, []learnertest.Named[*rrf.Model]{
		{Name: "online-hinge", Model: online(moons, moons.Y, rrf.Config{Features: 20, Eta: 0.01, EtaGamma: 0.02, Seed: 3})},
		{Name: "online-multiclass-logistic", Model: online(moons, three, rrf.Config{Features: 16, Loss: rrf.Logistic, Classes: []float64{0, 1, 2}, Eta: 0.01, EtaGamma: 0.02, Seed: 4})},
		{Name: "online-l2", Model: online(se1, se1.Y, rrf.Config{Task: reg, Features: 24, Width: 0.3, Seed: 5})},
		{Name: "online-fixed-widths", Model: online(moons, moons.Y, rrf.Config{Features: 20, FixedWidths: true, Width: 2, Seed: 6})},
		// A stream learned in file order over a restart (the Config
		// carries Shuffle and Standardize, which older files omit).
		{Name: "fit-resumed-file-order", Model: learnertest.ResumedFit(t, rrf.Fit, rrf.Load, moons, 170,
			rrf.Config{Features: 20, Eta: 0.01, Epochs: 1, Seed: 10, Shuffle: learners.Disabled, Standardize: learners.Disabled})},
	})
}
