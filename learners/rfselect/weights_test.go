package rfselect_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rfselect"
)

// TestWeights: weight 2 ≡ the row twice, 0 ≡ dropped, for both selections
// and every task (the selection sees the weights too: the same features
// are chosen).
func TestWeights(t *testing.T) {
	for _, sel := range []rfselect.Selection{rfselect.EERFSelection, rfselect.LKRFSelection} {
		for _, task := range []learners.Task{learners.Multiclass, learners.Binary, learners.Regression} {
			cfg := rfselect.Config{Selection: sel, Task: task, Features: 20, Seed: 2, Search: learners.Disabled, Calibrate: learners.Disabled}
			learnertest.WeightsOf(t, task, "rfselect: ", 1e-6, rfselect.Fit, rfselect.FitWeighted, cfg)
		}
	}
}
