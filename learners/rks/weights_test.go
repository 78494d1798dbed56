package rks_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestWeights: weight 2 ≡ the row twice, 0 ≡ dropped, for every task and
// both losses, through FitWeighted and the registry's Method.FitWeighted.
func TestWeights(t *testing.T) {
	for _, c := range []struct {
		task learners.Task
		loss rks.Loss
	}{{learners.Multiclass, ""}, {learners.Binary, rks.Logistic}, {learners.Binary, rks.Ridge}, {learners.Regression, ""}} {
		cfg := rks.Config{Task: c.task, Loss: c.loss, Features: 30, Seed: 2}
		learnertest.WeightsOf(t, c.task, "rks: ", 1e-6, rks.Fit, rks.FitWeighted, cfg)
	}
	m, err := learners.Lookup("rks")
	if err != nil || m.FitWeighted == nil {
		t.Fatalf("rks: FitWeighted not registered (%v)", err)
	}
	X, y := learnertest.Rings3(60, 1)
	w := make([]float64, 60)
	w[0], w[1], w[2] = 1, 1, 1
	if _, err := m.FitWeighted(context.Background(), X, y, w, &rks.Config{Task: learners.Multiclass, Features: 5}, nil); err != nil {
		t.Errorf("registry FitWeighted: %v", err)
	}
}
