package rks_test

import (
	"math"
	"os"
	"testing"

	"slices"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestUncalibratedFile: a model file written before the calibration
// existed (testdata/logistic-uncalibrated.model, the golden logistic
// model's old bytes) loads without one and its probabilities are the
// logistic link's, as they were; the same Fit today stores a calibration,
// its file version is the old one plus modelfile.CalibratedVersion, and it
// reads back with the same probabilities.
func TestUncalibratedFile(t *testing.T) {
	data, err := os.ReadFile("testdata/logistic-uncalibrated.model")
	if err != nil {
		t.Fatal(err)
	}
	old, err := rks.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := old.Calibration(); ok {
		t.Fatal("an old file has a calibration")
	}
	moons, _ := learnertest.GoldenSets()
	for i := range 20 {
		x := moons.Row(i)
		if p, want := old.Probability(x), 1/(1+math.Exp(-old.Score(x))); math.Abs(p-want) > 1e-12 {
			t.Fatalf("row %d: Probability %v, want the logistic link's %v", i, p, want)
		}
	}
	m := learnertest.MustFit(t, rks.Fit, featmap.Dense(moons.N, moons.D, moons.X), moons.Y, rks.Config{Features: 40, Seed: 3})
	a, c, ok := m.Calibration()
	if !ok || !(a > 0) || c != 0 {
		t.Fatalf("calibration %v %v %v, want a slope > 0 and no intercept", a, c, ok)
	}
	back := learnertest.Reload(t, m, rks.Load)
	for i := range 20 {
		x := moons.Row(i)
		p := m.Probability(x)
		if q := back.Probability(x); math.Float64bits(p) != math.Float64bits(q) {
			t.Fatalf("row %d: Probability %v, reloaded %v", i, p, q)
		}
		if want := 1 / (1 + math.Exp(-a*m.Score(x))); math.Abs(p-want) > 1e-12 {
			t.Fatalf("row %d: Probability %v, want σ(a·score) = %v", i, p, want)
		}
	}
	good := learnertest.Bytes(t, m)
	if h, err := modelfile.ReadHeader(good); err != nil || h.Version != modelfile.CalibratedVersion+1 {
		t.Fatalf("header %+v, %v: want version %d", h, err, modelfile.CalibratedVersion+1)
	}
	drop := func(f *modelfile.File) {
		f.Arrays = slices.DeleteFunc(f.Arrays, func(a modelfile.Array) bool { return a.Name == "calibration" })
	}
	learnertest.LoadErrors(t, "rks: ", rks.Load, []learnertest.LoadCase{
		{Name: "no calibration", Data: learnertest.Rewrite(t, good, drop), Want: `no array "calibration"`},
		{Name: "NaN slope", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "calibration", []float64{1e300, 0}) }), Want: "calibration = [1e+300 0]"},
		{Name: "short", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "calibration", []float64{1}) }), Want: "calibration"},
		{Name: "version 100", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Version = modelfile.CalibratedVersion }), Want: "newer than this build reads"},
		{Name: "version 102", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Version = modelfile.CalibratedVersion + 3 }), Want: "newer than this build reads"},
	})
}

// TestSearchGamma: on a fine checkerboard the default γ = 1/d is far too
// wide; the default fit compares γ × {1, ¼, 4} on held-out rows, keeps a
// larger γ and is more accurate on fresh rows than the fit of the
// default γ alone (Search disabled).
func TestSearchGamma(t *testing.T) {
	tr, te := learnertest.Must(synth.Checkerboard(600, 0.05, 1)), learnertest.Must(synth.Checkerboard(2000, 0.05, 2))
	X := featmap.Dense(tr.N, tr.D, tr.X)
	m := learnertest.MustFit(t, rks.Fit, X, tr.Y, rks.Config{Seed: 1})
	plain := learnertest.MustFit(t, rks.Fit, X, tr.Y, rks.Config{Seed: 1, Search: learners.Disabled})
	acc := func(m *rks.Model) float64 {
		var right float64
		for i := range te.N {
			if m.Predict(te.Row(i)) == te.Y[i] {
				right++
			}
		}
		return right / float64(te.N)
	}
	st := m.FitStats()
	t.Logf("γ %v, accuracy %.3f; default γ %v, accuracy %.3f; %+v", m.Config().Gamma, acc(m), plain.Config().Gamma, acc(plain), st)
	if m.Config().Gamma <= plain.Config().Gamma || acc(m) <= acc(plain) || st.Candidates != 3 || st.HeldOutRows != tr.N/2 || st.Metric != "accuracy" {
		t.Errorf("searched γ %v (accuracy %.3f, stats %+v), want above the default %v (accuracy %.3f) and 3 candidates on %d rows",
			m.Config().Gamma, acc(m), st, plain.Config().Gamma, acc(plain), tr.N/2)
	}
}
