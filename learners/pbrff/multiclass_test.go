package pbrff_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/pbrff"
)

// TestMulticlass: three rings (labels 10, 20, 30) with 30 landmarks of 5
// frequencies: the suite's multiclass checks (accuracy, probabilities,
// batch forms, no allocation, file round trip), the version-2 file, and
// the losses the multiclass task refuses.
func TestMulticlass(t *testing.T) {
	m := learnertest.Multiclass(t, 0.93, learnertest.MulticlassFit(pbrff.Fit, pbrff.Config{Landmarks: 30, K: 5}), pbrff.Load)
	if c := m.(*pbrff.Model).Config(); c.Loss != pbrff.Logistic || c.Task != learners.Multiclass {
		t.Errorf("resolved config %+v: want the logistic loss and the multiclass task", c)
	}
	X, y := learnertest.Rings3(60, 1)
	for _, loss := range []pbrff.Loss{pbrff.Hinge, pbrff.SquaredHinge} {
		_, err := pbrff.Fit(context.Background(), X, y, pbrff.Config{Task: learners.Multiclass, Loss: loss})
		if err == nil {
			t.Errorf("multiclass with Loss %s accepted", loss)
		}
	}
	// Two classes are not a multiclass task.
	if _, err := pbrff.Fit(context.Background(), featmap.Dense(4, 1, []float64{1, 2, 3, 4}), []float64{0, 1, 0, 1}, pbrff.Config{Task: learners.Multiclass}); err == nil {
		t.Error("a two-class multiclass fit accepted")
	}
}

// TestMulticlassDatasets: mean test accuracy over stratified 70/30 splits
// of the four multiclass sets of ../shared/datasets with the default
// Config (100 landmarks × 10 frequencies, multinomial head, C = 1). With
// -short, 2 splits against thresholds about 3 points under what they
// give (wine 1.000, balance 0.949, vehicle 0.760, newthyroid 0.969);
// otherwise the 10 splits of bench/cmd/multiclass against the issue's
// target, 2 points under the better of XGBoost and the RBF SVC (measured:
// 0.985, 0.942, 0.774, 0.966). Skipped without the data sets (a fresh
// clone).
func TestMulticlassDatasets(t *testing.T) {
	fit := learnertest.MulticlassFit(pbrff.Fit, pbrff.Config{})
	splits, min := 10, [4]float64{}
	for k, s := range learnertest.MulticlassSets {
		min[k] = s.Reference - 0.02
	}
	if testing.Short() {
		splits, min = 2, [4]float64{0.96, 0.92, 0.73, 0.94}
	}
	for k, s := range learnertest.MulticlassSets {
		acc := learnertest.MulticlassAccuracy(t, s.Name, splits, fit)
		t.Logf("%s: mean test accuracy over %d splits %.4f (reference %.3f)", s.Name, splits, acc, s.Reference)
		if acc < min[k] {
			t.Errorf("%s: accuracy %.4f over %d splits, want ≥ %.3f", s.Name, acc, splits, min[k])
		}
	}
}

// TestWeights: weight 2 ≡ the row twice and 0 ≡ dropped (the suite's
// Weights) for the multiclass task and each binary loss. The two fits
// draw the same landmarks and frequencies (integer weights map the same
// stream values to the same rows), so what separates them is the order
// of the weighted sums (w·cos once against cos twice: relative 1e-16 in
// the landmark losses, amplified by β√n ≈ 17 in the pseudo-posterior) and
// the classifier's solver, run to tight tolerances here (SVM 1e-10 on the
// dual gradient, L-BFGS's 1e-8 on the gradient): measured, the scores
// agree to about 1e-9; the check allows 1e-6.
func TestWeights(t *testing.T) {
	for _, c := range []struct {
		task learners.Task
		loss pbrff.Loss
	}{{learners.Multiclass, ""}, {learners.Binary, pbrff.Hinge}, {learners.Binary, pbrff.SquaredHinge}, {learners.Binary, pbrff.Logistic}} {
		cfg := pbrff.Config{Task: c.task, Loss: c.loss, Landmarks: 20, K: 5, Tol: 1e-10, MaxEpochs: 1000000, Seed: 4, Search: learners.Disabled}
		learnertest.Weights(t, c.task, "pbrff: ", 1e-6,
			func(X featmap.Matrix, y []float64) (learners.Model, error) {
				return pbrff.Fit(context.Background(), X, y, cfg)
			},
			func(X featmap.Matrix, y, w []float64) (learners.Model, error) {
				return pbrff.FitWeighted(context.Background(), X, y, w, cfg)
			})
	}
}

// TestWeightedMissingGolden: weights (real-valued, so the landmark draw
// takes its W·u branch) and imputation give the bytes of the golden files
// on every path and architecture, multiclass and binary; a NaN input
// without Missing = impute is an error naming it. Regenerate with
// go test -run WeightedMissingGolden ./learners/pbrff -update.
func TestWeightedMissingGolden(t *testing.T) {
	Xn, y, w := learnertest.WeightedMissing()
	m, err := pbrff.FitWeighted(context.Background(), Xn, y, w, pbrff.Config{Task: learners.Multiclass, Landmarks: 12, K: 5, Seed: 3, Missing: learners.MissingImpute})
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass-weighted-missing", learnertest.Bytes(t, m))
	if !m.Imputes() || m.Predict(Xn.Row(1)) != m.Predict(Xn.Row(1)) {
		t.Error("the model does not impute")
	}
	yb := make([]float64, len(y))
	for i, v := range y {
		yb[i] = min(v, 20) // classes 10 and 20
	}
	mb, err := pbrff.FitWeighted(context.Background(), Xn, yb, w, pbrff.Config{Landmarks: 12, K: 5, Seed: 3, Missing: learners.MissingImpute})
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "binary-weighted-missing", learnertest.Bytes(t, mb))
	if _, err := pbrff.Fit(context.Background(), Xn, yb, pbrff.Config{Landmarks: 12, K: 5}); err == nil || !strings.Contains(err.Error(), "X[1, 1] is NaN") {
		t.Errorf("NaN input without impute: %v", err)
	}
}
