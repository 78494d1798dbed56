package prff_test

import (
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/prff"
)

func fit(t testing.TB, X featmap.Matrix, y []float64, cfg prff.Config) *prff.Model {
	t.Helper()
	if raceEnabled && cfg.MaxIter == 0 {
		cfg.MaxIter = 30 // the race detector slows learning ~10×; the thresholds still hold
	}
	return learnertest.MustFit(t, prff.Fit, X, y, cfg)
}

// TestRings: two concentric rings (radii 1 and 2, radial noise 0.15) in
// the first two of four inputs, the other two pure noise. The classes have
// the same mean, so a linear classifier is at chance (threshold 0.62),
// while the Gaussian kernel separates them almost perfectly (the Bayes
// error is ≈ 0.05%; PRFF with the defaults measured 0.978–0.997 with both
// losses on 6 seeds; threshold 0.90).
func TestRings(t *testing.T) {
	for _, loss := range []prff.Loss{prff.Logistic, prff.Ridge} {
		learnertest.RingsAccuracy(t, 0.90, func(X featmap.Matrix, y []float64) (*prff.Model, error) {
			return fit(t, X, y, prff.Config{Loss: loss, Seed: 3}), nil
		})
	}
}

// TestRegression: y = sin(2x₁) + x₂²/2 + N(0, 0.1²). The mean predictor's
// RMSE is ≈ 0.89; PRFF with the defaults measured 0.138–0.164 on 6 seeds
// (the noise floor is 0.1). Thresholds: 0.3 and half the mean predictor's.
func TestRegression(t *testing.T) {
	m := learnertest.SineRMSE(t, 0.3, func(X featmap.Matrix, y []float64) (*prff.Model, error) {
		return fit(t, X, y, prff.Config{Task: learners.Regression, Seed: 3}), nil
	})
	if m.Config().Loss != prff.Ridge {
		t.Fatalf("resolved config %+v", m.Config())
	}
}
