package mfga_test

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/mfga"
)

func TestFitErrors(t *testing.T) {
	X, y := rings(20, 0, 0, 1, 1)
	cases := []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  mfga.Config
		want string
	}{
		{"negative features", X, y, mfga.Config{Features: -1}, "mfga: Features = -1"},
		{"huge features", X, y, mfga.Config{Features: mfga.MaxFeatures + 1}, "Features = 16385, want 1..16384"},
		{"negative perstep", X, y, mfga.Config{PerStep: -2}, "mfga: PerStep = -2"},
		{"degree 3", X, y, mfga.Config{Degree: 3}, "mfga: Degree = 3, want 1..2"},
		{"NaN sigma", X, y, mfga.Config{Sigma: math.NaN()}, "mfga: Sigma = NaN"},
		{"negative sigma", X, y, mfga.Config{Sigma: -1}, "Sigma = -1"},
		{"Inf sigma", X, y, mfga.Config{Sigma: math.Inf(1)}, "Sigma = +Inf"},
		{"negative lambda", X, y, mfga.Config{Lambda: -1e-3}, "mfga: Lambda = -0.001"},
		{"NaN lambda", X, y, mfga.Config{Lambda: math.NaN()}, "Lambda = NaN"},
		{"NaN tol", X, y, mfga.Config{Tol: math.NaN()}, "mfga: Tol = NaN"},
		{"huge dictionary", featmap.Dense(1, 5000, make([]float64, 5000)), []float64{1}, mfga.Config{Task: learners.Regression}, "more than 4194304 degree-2 candidates"},
		{"bad task", X, y, mfga.Config{Task: 7}, "Task = Task(7)"},
	}
	learnertest.FitErrors(t, "mfga: ", mfga.Fit, cases)
}

func TestProgressAndContext(t *testing.T) {
	X, y := rings(50, 0, 0, 1, 2)
	var events []learners.Event
	cfg := mfga.Config{Features: 10, PerStep: 1, Tol: -1, Progress: func(e learners.Event) error {
		events = append(events, e)
		return nil
	}}
	fit(t, X, y, cfg)
	// Two inputs: M₀ = 5 candidates, so 5 steps of one feature.
	if len(events) != 5 || events[0].Round != 1 || events[4].Round != 5 || events[4].Rounds != 5 ||
		events[0].Method != "mfga" || !(events[4].Loss > 0) || events[4].Elapsed < events[0].Elapsed {
		t.Errorf("events %+v", events)
	}
}

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
		{"unresolved", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Config = []byte(`{"Features":10}`) }), "unresolved defaults"},
		{"invalid config", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Features":10,"PerStep":1,"Degree":1,"Sigma":-1,"Lambda":1,"Tol":1}`)
		}), "Sigma = -1"},
		{"task mismatch", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Features":10,"PerStep":1,"Degree":1,"Sigma":1,"Lambda":1,"Tol":1,"Task":"regression"}`)
		}), "config task regression, header task binary"},
		{"short coef", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "coef", make([]float64, 2)) }), `array "coef" has 2 elements, want 3`},
		{"no coef", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Arrays = f.Arrays[:3] }), `no array "coef"`},
		{"no bias", learnertest.Rewrite(t, good, func(f *modelfile.File) { delete(f.Header.Meta, "bias") }), `no meta value "bias"`},
		{"no selected", learnertest.Rewrite(t, good, func(f *modelfile.File) { delete(f.Header.Meta, "selected") }), `no meta value "selected"`},
		{"too many selected", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["selected"] = 11 }), "selected = 11, want an integer in 0..3"},
		{"fractional selected", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["selected"] = 1.5 }), "selected = 1.5"},
		{"bad index", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "index", []float64{0, 5, 1}) }), "index[1] = 5, want an integer in 0..4"},
		{"negative index", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "index", []float64{0, -1, 1}) }), "index[1] = -1"},
		{"long risk", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "risk", make([]float64, 5)) }), "risk path has 5 values, want 1..4"},
	}
	learnertest.LoadErrors(t, "mfga: ", mfga.Load, cases)
}
