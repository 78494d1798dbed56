package mfga_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/mfga"
)

// TestWeights: weight 2 ≡ the row twice, 0 ≡ dropped, for every task
// (σ fixed: the rule of thumb looks at the rows unweighted).
func TestWeights(t *testing.T) {
	for _, task := range []learners.Task{learners.Multiclass, learners.Binary, learners.Regression} {
		cfg := mfga.Config{Task: task, Degree: 2, Features: 10, PerStep: 2, Sigma: 1.5}
		learnertest.WeightsOf(t, task, "mfga: ", 1e-6, mfga.Fit, mfga.FitWeighted, cfg)
	}
}
