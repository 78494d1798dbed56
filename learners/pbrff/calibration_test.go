package pbrff

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/learners"
)

// logLoss is the mean log loss of m's Probability on s.
func logLoss(m *Model, s *synth.Set) float64 {
	var l float64
	for i := range s.N {
		p := m.Probability(s.Row(i))
		if s.Y[i] < 0 {
			p = 1 - p
		}
		l -= math.Log(math.Max(p, 1e-15))
	}
	return l / float64(s.N)
}

// TestCalibratedLogLoss: on noisy moons the default fit's calibrated
// probabilities have a test log loss below the class-prior predictor's
// (log 2) and below the squared hinge's own clamped link (measured 0.300
// against 0.466).
func TestCalibratedLogLoss(t *testing.T) {
	tr, te := must(synth.Moons(600, 0.35, 21)), must(synth.Moons(2000, 0.35, 22))
	cal := fit(t, tr, Config{Loss: SquaredHinge, Seed: 1})
	raw := fit(t, tr, Config{Loss: SquaredHinge, Seed: 1, Calibrate: learners.Disabled})
	lc, lr := logLoss(cal, te), logLoss(raw, te)
	t.Logf("log loss: calibrated %.3f, the loss's link %.3f", lc, lr)
	if !(lc < math.Log(2)) || !(lc < lr) {
		t.Errorf("calibrated log loss %.3f, want below log 2 and below the link's %.3f", lc, lr)
	}
}
