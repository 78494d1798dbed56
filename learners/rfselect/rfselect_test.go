package rfselect_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rfselect"
)

func fit(t testing.TB, X featmap.Matrix, y []float64, cfg rfselect.Config) *rfselect.Model {
	return learnertest.MustFit(t, rfselect.Fit, X, y, cfg)
}

// TestRings: two concentric rings (radii 1 and 2, radial noise 0.15) in
// the first two of four inputs, the other two pure noise. The classes have
// the same mean, so a linear classifier is at chance (measured 0.44–0.55
// on 10 seeds; threshold 0.62), while the Gaussian kernel separates them
// almost perfectly (the Bayes error is ≈ 0.05%; RKS with the defaults
// measured 0.966–0.99 with both losses; threshold 0.90).
func TestRings(t *testing.T) {
	for _, loss := range []rfselect.Loss{rfselect.Logistic, rfselect.Ridge} {
		learnertest.RingsAccuracy(t, 0.90, func(X featmap.Matrix, y []float64) (*rfselect.Model, error) {
			return rfselect.Fit(context.Background(), X, y, rfselect.Config{Loss: loss, Seed: 3})
		})
	}
}

// TestRegression: y = sin(2x₁) + x₂²/2 + N(0, 0.1²). The mean predictor's
// RMSE is ≈ 0.89; RKS with the defaults measured 0.14–0.19 on 10 seeds
// (the noise floor is 0.1). Thresholds: 0.3 and half the mean predictor's.
func TestRegression(t *testing.T) {
	m := learnertest.SineRMSE(t, 0.3, func(X featmap.Matrix, y []float64) (*rfselect.Model, error) {
		return rfselect.Fit(context.Background(), X, y, rfselect.Config{Task: learners.Regression, Seed: 3})
	})
	if m.Config().Loss != rfselect.Ridge {
		t.Fatalf("resolved config %+v", m.Config())
	}
}

// The registry's methods fix Selection, so the unknown one is Fit's alone
// (the rest of the Config checks run in the conformance suite).
func TestUnknownSelection(t *testing.T) {
	X, y := rings(20, 0, 0, 1, 1)
	learnertest.FitErrors(t, "rfselect: ", rfselect.Fit, []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  rfselect.Config
		want string
	}{{"unknown selection", X, y, rfselect.Config{Selection: "top"}, `rfselect: unknown Selection "top"`}})
}

// A file whose config names the other selection than its method.
func TestSelectionMismatch(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good, err := fit(t, X, y, rfselect.Config{Features: 10}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	learnertest.LoadErrors(t, "rfselect: ", rfselect.Load, []struct {
		name string
		data []byte
		want string
	}{{"selection mismatch", learnertest.Rewrite(t, good, func(f *modelfile.File) {
		f.Header.Config = []byte(`{"Selection":"lkrf","Features":10,"Candidates":200,"Gamma":1,"Rho":1,"Lambda":1,"Loss":"ridge"}`)
	}), `config selection "lkrf" in a "eerf" model`}})
}
