package rks_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestRings: two concentric rings (radii 1 and 2, radial noise 0.15) in
// the first two of four inputs, the other two pure noise. The classes have
// the same mean, so a linear classifier is at chance (measured 0.44–0.55
// on 10 seeds; threshold 0.62), while the Gaussian kernel separates them
// almost perfectly (the Bayes error is ≈ 0.05%; RKS with the defaults
// measured 0.966–0.99 with both losses; threshold 0.90).
func TestRings(t *testing.T) {
	for _, loss := range []rks.Loss{rks.Logistic, rks.Ridge} {
		learnertest.RingsAccuracy(t, 0.90, func(X featmap.Matrix, y []float64) (*rks.Model, error) {
			return rks.Fit(context.Background(), X, y, rks.Config{Loss: loss, Seed: 3})
		})
	}
}

// TestRegression: y = sin(2x₁) + x₂²/2 + N(0, 0.1²). The mean predictor's
// RMSE is ≈ 0.89; RKS with the defaults measured 0.14–0.19 on 10 seeds
// (the noise floor is 0.1). Thresholds: 0.3 and half the mean predictor's.
func TestRegression(t *testing.T) {
	m := learnertest.SineRMSE(t, 0.3, func(X featmap.Matrix, y []float64) (*rks.Model, error) {
		return rks.Fit(context.Background(), X, y, rks.Config{Task: learners.Regression, Seed: 3})
	})
	if m.Config().Loss != rks.Ridge {
		t.Fatalf("resolved config %+v", m.Config())
	}
}
