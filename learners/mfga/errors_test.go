package mfga_test

import (
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/mfga"
)

// A dictionary over MaxCandidates is refused (the other Config checks run
// in the conformance suite).
func TestHugeDictionary(t *testing.T) {
	learnertest.FitErrors(t, "mfga: ", mfga.Fit, []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  mfga.Config
		want string
	}{{"huge dictionary", featmap.Dense(1, 5000, make([]float64, 5000)), []float64{1}, mfga.Config{Task: learners.Regression}, "more than 4194304 degree-2 candidates"}})
}

// TestLoadErrors: the selection's own invariants (the generic file checks
// run in the conformance suite).
func TestLoadErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good, err := fit(t, X, y, mfga.Config{Features: 3, Tol: -1}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"too many selected", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["selected"] = 11 }), "selected = 11, want an integer in 0..3"},
		{"fractional selected", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["selected"] = 1.5 }), "selected = 1.5"},
		{"bad index", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "index", []float64{0, 5, 1}) }), "index[1] = 5, want an integer in 0..4"},
		{"negative index", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "index", []float64{0, -1, 1}) }), "index[1] = -1"},
		{"long risk", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "risk", make([]float64, 5)) }), "risk path has 5 values, want 1..4"},
	}
	learnertest.LoadErrors(t, "mfga: ", mfga.Load, cases)
}
