package rks_test

import (
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestMulticlass: three rings, which RKS with the defaults separates
// (measured test accuracy 0.97; threshold 0.9), and the ClassModel checks;
// the file is version 2 (a multiclass fit is not calibrated by default),
// binary files without a calibration stay version 1.
func TestMulticlass(t *testing.T) {
	m := learnertest.Multiclass(t, 0.9, learnertest.MulticlassFit(rks.Fit, rks.Config{Seed: 1}), rks.Load)
	data, _ := m.MarshalBinary()
	h, err := modelfile.ReadHeader(data)
	if err != nil || h.Version != 2 || h.Task != "multiclass" {
		t.Errorf("header %+v, %v", h, err)
	}
	X, y := learnertest.Rings(50, 0, 0, 1, 1)
	data, _ = learnertest.MustFit(t, rks.Fit, X, y, rks.Config{Features: 10, Calibrate: learners.Disabled}).MarshalBinary()
	if h, _ := modelfile.ReadHeader(data); h.Version != 1 {
		t.Errorf("binary model version %d", h.Version)
	}
}

func TestMulticlassErrors(t *testing.T) {
	X, y3 := learnertest.Rings3(30, 1)
	y2 := append([]float64(nil), y3...)
	for i := range y2 {
		y2[i] = float64(i % 2)
	}
	many := make([]float64, 30)
	for i := range many {
		many[i] = float64(i) / 7
	}
	wide := featmap.Dense(modelfile.MaxClasses+1, 1, make([]float64, modelfile.MaxClasses+1))
	manyY := make([]float64, modelfile.MaxClasses+1)
	for i := range manyY {
		manyY[i] = float64(i)
	}
	mc := rks.Config{Task: learners.Multiclass, Features: 5}
	cases := []learnertest.FitCase[rks.Config]{
		{Name: "two classes", X: X, Y: y2, Cfg: mc, Want: "labels: two classes (0 and 1); the multiclass task needs three or more"},
		{Name: "too many classes", X: wide, Y: manyY, Cfg: mc, Want: "labels: more than 4096 classes"},
		{Name: "ridge", X: X, Y: y3, Cfg: rks.Config{Task: learners.Multiclass, Loss: rks.Ridge}, Want: "Loss = ridge: the multiclass task fits multinomial logistic regression"},
		{Name: "binary with three", X: X, Y: y3, Cfg: rks.Config{}, Want: "more than two classes"},
		{Name: "bad missing", X: X, Y: y3, Cfg: rks.Config{Missing: 7}, Want: "Missing = Missing(7)"},
	}
	learnertest.FitErrors(t, "rks: ", rks.Fit, cases)
}

// TestMulticlassDatasets: mean test accuracy over stratified 70/30 splits
// of the four multiclass sets (skipped without
// ../shared/datasets). Thresholds a few points under the accuracy measured
// with these settings (see bench/results/multiclass.md).
func TestMulticlassDatasets(t *testing.T) {
	learnertest.MulticlassAtLeast(t, "", [4]float64{0.94, 0.88, 0.74, 0.92}, learnertest.MulticlassFit(rks.Fit, rks.Config{Features: 300, Seed: 1}))
}
