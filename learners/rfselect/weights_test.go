package rfselect_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rfselect"
)

// TestWeights: weight 2 ≡ the row twice, 0 ≡ dropped, for both selections
// and every task (the selection sees the weights too: the same features
// are chosen).
func TestWeights(t *testing.T) {
	for _, sel := range []rfselect.Selection{rfselect.EERFSelection, rfselect.LKRFSelection} {
		for _, task := range []learners.Task{learners.Multiclass, learners.Binary, learners.Regression} {
			cfg := rfselect.Config{Selection: sel, Task: task, Features: 20, Seed: 2}
			learnertest.Weights(t, task, "rfselect: ", 1e-6,
				func(X featmap.Matrix, y []float64) (learners.Model, error) {
					return rfselect.Fit(context.Background(), X, y, cfg)
				},
				func(X featmap.Matrix, y, w []float64) (learners.Model, error) {
					return rfselect.FitWeighted(context.Background(), X, y, w, cfg)
				})
		}
	}
}
