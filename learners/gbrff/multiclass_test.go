package gbrff_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/learnertest"
)

func fitMulti(cfg gbrff.Config) func(featmap.Matrix, []float64) (learners.Model, error) {
	cfg.Task = learners.Multiclass
	return func(X featmap.Matrix, y []float64) (learners.Model, error) {
		return gbrff.Fit(context.Background(), X, y, cfg)
	}
}

// TestMulticlass: the shared multiclass checks on three rings (accuracy
// ≥ 0.9 on fresh rows; seeds 1: measured in the log), a version-4 file,
// the same bytes for any Threads and on every path (golden file), and
// weights (a weight of 2 against the duplicated row: the same labels on
// at least 97 % of fresh rows, as for binary classification).
func TestMulticlass(t *testing.T) {
	m := learnertest.Multiclass(t, 0.9, fitMulti(gbrff.Config{T: 30, LearningRate: 0.5, Seed: 1}), func(b []byte) (learners.Model, error) { return gbrff.Load(b) })
	data, _ := m.MarshalBinary()
	if h, err := modelfile.ReadHeader(data); err != nil || h.Version != 4 || h.Task != "multiclass" {
		t.Errorf("header %+v, %v", h, err)
	}
	X, y := learnertest.Rings3(150, 3)
	var want []byte
	for _, threads := range []int{1, 0} {
		m, err := fitMulti(gbrff.Config{T: 6, Seed: 2, Threads: threads})(X, y)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := m.MarshalBinary()
		if want == nil {
			want = got
			learnertest.Golden(t, "gbrff2_multiclass", got)
		} else if !bytes.Equal(got, want) {
			t.Error("Threads changes the multiclass model")
		}
	}
	// weights
	n, d := X.Rows, X.Cols
	w := make([]float64, n)
	var Xd, yd []float64
	for i := range w {
		w[i] = float64(1 + i%2)
		for k := 0; k < int(w[i]); k++ {
			Xd, yd = append(Xd, X.Row(i)...), append(yd, y[i])
		}
	}
	cfg := gbrff.Config{Task: learners.Multiclass, T: 20, LearningRate: 0.5, Seed: 2}
	mw, err := gbrff.FitWeighted(context.Background(), X, y, w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	md, err := gbrff.Fit(context.Background(), featmap.Dense(len(yd), d, Xd), yd, cfg)
	if err != nil {
		t.Fatal(err)
	}
	Xt, _ := learnertest.Rings3(1000, 4)
	same := 0
	for i := 0; i < Xt.Rows; i++ {
		if mw.Predict(Xt.Row(i)) == md.Predict(Xt.Row(i)) {
			same++
		}
	}
	t.Logf("weighted and duplicated multiclass fits agree on %d of %d labels", same, Xt.Rows)
	if same < 970 {
		t.Errorf("weighted and duplicated multiclass fits agree on %d of %d labels only", same, Xt.Rows)
	}
}

// TestMulticlassDataSets: mean test accuracy over 3 stratified 70/30
// splits of the four data sets (skipped without the shared data)
// within 2 points of the better of XGBoost and an RBF SVC (the issue's
// target; measured over 3 splits: wine 98.1, balance 97.5, vehicle 81.6,
// newthyroid 95.4 %).
func TestMulticlassDataSets(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 12 models")
	}
	for _, s := range learnertest.MulticlassSets {
		acc := learnertest.MulticlassAccuracy(t, s.Name, 3, fitMulti(gbrff.Config{LearningRate: 0.5}))
		t.Logf("%s: %.3f (reference %.3f)", s.Name, acc, s.Reference)
		if acc < s.Reference-0.02 {
			t.Errorf("%s: accuracy %.3f, more than 2 points below %.3f", s.Name, acc, s.Reference)
		}
	}
}
