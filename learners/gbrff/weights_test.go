package gbrff_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestWeights: the shared weights check (weight 2 ≡ the row twice, 0 ≡
// dropped, unit weights differ from the duplicated fit, bad weights named)
// for both variants and tasks. The tolerance on the scores is what the
// phase and frequency steps' surrogate allows (see FitWeighted): 1e-3 for
// regression, where the surrogate is linear to 1e-3; for binary
// classification, where ỹ = y·c·e^{−yH} enters exp(−ỹh) non-linearly,
// see TestWeightsBinary.
func TestWeights(t *testing.T) {
	for _, c := range []struct {
		task learners.Task
		cfg  gbrff.Config
		tol  float64
	}{
		{learners.Regression, gbrff.Config{T: 10, LearningRate: 0.5}, 1e-3},
		// GBRFF1: the landmark's L-BFGS path (10 iterations, unconverged)
		// amplifies the 1e-3 differences: round 2 ends at another p with
		// a similar weak learner
		{learners.Regression, gbrff.Config{Variant: gbrff.VariantGBRFF1, T: 5, K: 3, LearningRate: 0.5}, 0.05},
	} {
		cfg := c.cfg
		cfg.Task, cfg.Seed = c.task, 2
		t.Run(fmt.Sprintf("%v/%s/T=%d/calibration=%s", c.task, cfg.Variant, cfg.T, cfg.Calibration), func(t *testing.T) {
			learnertest.WeightsOf(t, c.task, "gbrff: ", c.tol, gbrff.Fit, gbrff.FitWeighted, cfg)
		})
	}
	m, err := learners.Lookup("gbrff2")
	if err != nil || m.FitWeighted == nil {
		t.Fatalf("gbrff2: FitWeighted not registered (%v)", err)
	}
}

// TestWeightsBinary: binary weights enter the exponential loss's weights
// exactly (H⁰, Σw, α), but the paper's surrogate of the phase and
// frequency steps is not linear in them, so weight 2 and a duplicated row
// give different cosines: the check is that the two models predict the
// same label on at least 95 % of fresh rows (measured: logged), that
// weights change the model, and the shared bad-weight errors.
func TestWeightsBinary(t *testing.T) {
	X, y := learnertest.Rings(240, 1, 3, 7, 4)
	Xt, _ := learnertest.Rings(1000, 1, 3, 7, 5)
	n := X.Rows
	w, Xd, yd := learnertest.Duplicated(X, y)
	for _, v := range []string{gbrff.VariantGBRFF2, gbrff.VariantGBRFF1} {
		// γ = 1/d (d = 2), the paper's width, set explicitly: on the binary
		// GBRFF2 default path (widths over [0.05, 0.5]/d) the two fits of
		// this ring problem agree on only 769 to 958 of 1000 labels over
		// seeds 1–6 (999–1000 at γ = 1/d): the low widths fit the rings
		// poorly and the models' near-zero margins flip with any change.
		cfg := gbrff.Config{Variant: v, T: 30, Seed: 2, K: 4, Gamma: 0.5, Calibration: gbrff.CalibrationNone}
		mw, err := gbrff.FitWeighted(context.Background(), X, y, w, cfg)
		if err != nil {
			t.Fatal(err)
		}
		md, err := gbrff.Fit(context.Background(), Xd, yd, cfg)
		if err != nil {
			t.Fatal(err)
		}
		same := 0
		for i := 0; i < Xt.Rows; i++ {
			if mw.Predict(Xt.Row(i)) == md.Predict(Xt.Row(i)) {
				same++
			}
		}
		t.Logf("%s: weighted and duplicated fits agree on %d of %d labels", v, same, Xt.Rows)
		if same < 950 {
			t.Errorf("%s: weighted and duplicated fits agree on %d of %d labels only", v, same, Xt.Rows)
		}
	}
	// calibrated, weighted: a temperature, and the bad weights
	cfg := gbrff.Config{T: 10, Seed: 2}
	m, err := gbrff.FitWeighted(context.Background(), X, y, w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Calibration(); !ok {
		t.Error("weighted fit not calibrated")
	}
	for _, bad := range [][]float64{make([]float64, n), w[:5]} {
		if _, err := gbrff.FitWeighted(context.Background(), X, y, bad, cfg); err == nil {
			t.Errorf("weights %v…: no error", bad[:2])
		}
	}
	if _, err := gbrff.FitWeighted(context.Background(), X, y, w, gbrff.Config{Validation: 0.2}); err == nil {
		t.Error("weights with early stopping: no error (not implemented)")
	}
}
