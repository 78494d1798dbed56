package rks_test

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

func TestFitErrors(t *testing.T) {
	X, y := rings(20, 0, 0, 1, 1)
	cases := []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  rks.Config
		want string
	}{
		{"negative features", X, y, rks.Config{Features: -1}, "rks: Features = -1"},
		{"huge features", X, y, rks.Config{Features: rks.MaxFeatures + 1}, "Features = 65537, want 1..65536"},
		{"NaN gamma", X, y, rks.Config{Gamma: math.NaN()}, "rks: Gamma = NaN"},
		{"negative gamma", X, y, rks.Config{Gamma: -1}, "Gamma = -1"},
		{"Inf gamma", X, y, rks.Config{Gamma: math.Inf(1)}, "Gamma = +Inf"},
		{"negative lambda", X, y, rks.Config{Lambda: -1e-3}, "rks: Lambda = -0.001"},
		{"NaN lambda", X, y, rks.Config{Lambda: math.NaN()}, "Lambda = NaN"},
		{"unknown loss", X, y, rks.Config{Loss: "hinge"}, `rks: unknown Loss "hinge"`},
		{"logistic regression", X, y, rks.Config{Loss: rks.Logistic, Task: learners.Regression}, "logistic needs the binary task"},
		{"bad task", X, y, rks.Config{Task: 7}, "Task = Task(7)"},
	}
	learnertest.FitErrors(t, "rks: ", rks.Fit, cases)
}

func TestProgressAndContext(t *testing.T) {
	X, y := rings(50, 0, 0, 1, 2)
	var events []learners.Event
	cfg := rks.Config{Features: 10, Progress: func(e learners.Event) error {
		events = append(events, e)
		return nil
	}}
	fit(t, X, y, cfg)
	if len(events) != 2 || events[0].Round != 1 || events[1].Round != 2 || events[1].Rounds != 2 ||
		events[0].Method != "rks" || !math.IsNaN(events[0].Loss) || !(events[1].Loss > 0) || events[1].Elapsed < events[0].Elapsed {
		t.Errorf("events %+v", events)
	}
}

func TestLoadErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good, err := fit(t, X, y, rks.Config{Features: 10}).MarshalBinary()
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
			f.Header.Config = []byte(`{"Features":10,"Gamma":-1,"Lambda":1,"Loss":"ridge"}`)
		}), "Gamma = -1"},
		{"task mismatch", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Features":10,"Gamma":1,"Lambda":1,"Loss":"ridge","Task":"regression"}`)
		}), "config task regression, header task binary"},
		{"short w", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "w", make([]float64, 19)) }), `array "w" has 19 elements, want 20`},
		{"no coef", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Arrays = f.Arrays[:4] }), `no array "coef"`},
		{"no bias", learnertest.Rewrite(t, good, func(f *modelfile.File) { delete(f.Header.Meta, "bias") }), `no meta value "bias"`},
	}
	learnertest.LoadErrors(t, "rks: ", rks.Load, cases)
}
