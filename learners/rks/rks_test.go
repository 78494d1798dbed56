package rks_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestRegressionLoss: the regression task resolves the loss to ridge (the
// accuracy checks run in the conformance suite).
func TestRegressionLoss(t *testing.T) {
	X, y := learnertest.Sine(100, 1)
	if m := learnertest.MustFit(t, rks.Fit, X, y, rks.Config{Task: learners.Regression}); m.Config().Loss != rks.Ridge {
		t.Fatalf("resolved config %+v", m.Config())
	}
}
