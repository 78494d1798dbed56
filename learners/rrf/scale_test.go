package rrf_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rrf"
)

// TestRegressionTargetScale: the default l2 fit learns the same function
// of the inputs whatever the targets' scale (η_γ follows their
// variance): on the sine data with targets times 10³ and 10⁻³ the test
// RMSE is that of the unscaled fit times the scale, within 2 %, and
// below the mean predictor's. With a fixed η_γ the widths' steps were
// clamped at every row on the large targets and did not move on the
// small ones.
func TestRegressionTargetScale(t *testing.T) {
	X, y := learnertest.Sine(600, 1)
	Xt, yt := learnertest.Sine(1000, 2)
	rmse := func(scale float64) (float64, float64) {
		ys, yts := make([]float64, len(y)), make([]float64, len(yt))
		for i, v := range y {
			ys[i] = v * scale
		}
		for i, v := range yt {
			yts[i] = v * scale
		}
		m, err := rrf.Fit(context.Background(), X, ys, rrf.Config{Task: learners.Regression, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		r, b := learnertest.RMSE(m, ys, Xt, yts)
		return r / scale, b / scale
	}
	r1, b1 := rmse(1)
	if !(r1 < 0.5*b1) {
		t.Fatalf("unscaled targets: RMSE %.4f, mean predictor's %.4f", r1, b1)
	}
	for _, s := range []float64{1e3, 1e-3} {
		r, _ := rmse(s)
		t.Logf("scale %g: RMSE/scale %.4f (unscaled %.4f)", s, r, r1)
		if r > 1.02*r1 || r < r1/1.02 {
			t.Errorf("targets × %g: RMSE/scale %.4f, unscaled %.4f", s, r, r1)
		}
	}
}

// TestRegressionEpochs: Fit's default for Regression is
// defaultRegressionEpochs (20) passes, the classifiers' defaultEpochs (5).
func TestRegressionEpochs(t *testing.T) {
	X, y := learnertest.Sine(100, 3)
	m, err := rrf.Fit(context.Background(), X, y, rrf.Config{Task: learners.Regression, Search: learners.Disabled})
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Config().Epochs; e != 20 || rrf.DefaultRegressionEpochs != 20 {
		t.Errorf("regression: %d epochs, want 20", e)
	}
	Xr, yr := learnertest.Rings(100, 0, 0, 1, 3)
	c, err := rrf.Fit(context.Background(), Xr, yr, rrf.Config{Search: learners.Disabled})
	if err != nil {
		t.Fatal(err)
	}
	if e := c.Config().Epochs; e != rrf.DefaultEpochs {
		t.Errorf("binary: %d epochs, want %d", e, rrf.DefaultEpochs)
	}
}
