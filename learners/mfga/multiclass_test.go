package mfga_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/mfga"
)

// TestMulticlass: three rings with a degree-2 dictionary (whose x₁², x₂²
// terms separate rings) and the ClassModel checks; the risk path
// decreases.
func TestMulticlass(t *testing.T) {
	m := learnertest.Multiclass(t, 0.9, learnertest.MulticlassFit(mfga.Fit, mfga.Config{Degree: 2, Features: 12}), mfga.Load)
	path := mfga.RiskPath(m.(*mfga.Model))
	for i := 1; i < len(path); i++ {
		if !(path[i] < path[i-1]) {
			t.Errorf("risk path %v does not decrease", path)
		}
	}
	if len(path) < 2 {
		t.Errorf("risk path %v", path)
	}
}

// TestMulticlassDatasets: mean test accuracy over stratified 70/30 splits
// of the four multiclass sets (skipped without
// ../shared/datasets); thresholds a few points under the measured means.
func TestMulticlassDatasets(t *testing.T) {
	// measured 0.981, 0.973, 0.829, 0.969 (3 splits)
	learnertest.MulticlassAtLeast(t, "", [4]float64{0.95, 0.94, 0.79, 0.93}, learnertest.MulticlassFit(mfga.Fit, mfga.Config{Degree: 2}))
}
