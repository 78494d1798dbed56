package pbrff

import (
	"math"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/datasets/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
)

func TestFitErrors(t *testing.T) {
	s := must(synth.Moons(20, 0.1, 1))
	X, y := dense(s), s.Y
	cases := []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  Config
		want string
	}{
		{"short y", X, y[:19], Config{}, "pbrff: X has 20 rows but y has 19 values"},
		{"negative landmarks", X, y, Config{Landmarks: -1}, "pbrff: Landmarks = -1, want 1..65536"},
		{"huge landmarks", X, y, Config{Landmarks: MaxLandmarks + 1}, "Landmarks = 65537"},
		{"negative K", X, y, Config{K: -3}, "pbrff: K = -3, want 1..4096"},
		{"huge K", X, y, Config{K: MaxK + 1}, "K = 4097"},
		{"too many frequencies", X, y, Config{Landmarks: 4096, K: 4096}, "Landmarks·K = 4096·4096 = 16777216 random frequencies, want at most 1048576"},
		{"NaN gamma", X, y, Config{Gamma: math.NaN()}, "pbrff: Gamma = NaN"},
		{"negative gamma", X, y, Config{Gamma: -1}, "pbrff: Gamma = -1, want a finite value in (0, 1e+06]"},
		{"Inf gamma", X, y, Config{Gamma: math.Inf(1)}, "Gamma = +Inf"},
		{"negative beta", X, y, Config{Beta: -0.5}, "pbrff: Beta = -0.5, want a finite value in (0, 1e+06]"},
		{"Inf beta", X, y, Config{Beta: math.Inf(1)}, "Beta = +Inf"},
		{"negative C", X, y, Config{C: -1}, "pbrff: C = -1, want a finite value in (0, 1e+06]"},
		{"NaN C", X, y, Config{C: math.NaN()}, "C = NaN"},
		{"negative tol", X, y, Config{Tol: -1e-3}, "pbrff: Tol = -0.001"},
		{"negative epochs", X, y, Config{MaxEpochs: -1}, "pbrff: MaxEpochs = -1"},
		{"unknown loss", X, y, Config{Loss: "ridge"}, `pbrff: unknown Loss "ridge", want "hinge", "squared-hinge" or "logistic"`},
	}
	learnertest.FitErrors(t, "pbrff: ", Fit, cases)
}

func TestProgressAndContext(t *testing.T) {
	s := must(synth.Moons(60, 0.1, 2))
	for _, loss := range []Loss{Hinge, SquaredHinge, Logistic} {
		var events []learners.Event
		cfg := Config{Landmarks: 10, Loss: loss, Progress: func(e learners.Event) error {
			events = append(events, e)
			return nil
		}}
		fit(t, s, cfg)
		if len(events) != 2 || events[0].Round != 1 || events[1].Round != 2 || events[1].Rounds != 2 ||
			events[0].Method != "pbrff" || events[1].Elapsed < events[0].Elapsed {
			t.Fatalf("%s: events %+v", loss, events)
		}
		// Round 1: the mean q-weighted feature loss, in [0, 1] and below ½
		// on learnable data; round 2: the classifier's objective.
		if l := events[0].Loss; !(l >= 0 && l < 0.5) {
			t.Errorf("%s: round 1 loss %v", loss, l)
		}
		if l := events[1].Loss; !(l > 0) || math.IsInf(l, 0) {
			t.Errorf("%s: round 2 loss %v", loss, l)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	s := must(synth.Moons(30, 0.1, 3))
	good := marshal(t, fit(t, s, Config{Landmarks: 4, K: 3}))

	const resolved = `"Landmarks":4,"K":3,"Gamma":0.5,"Beta":1,"C":1,"Loss":"hinge","Tol":0.001,"MaxEpochs":1000`
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"unresolved", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Config = []byte(`{"Landmarks":4}`) }), "unresolved defaults"},
		{"invalid config", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Landmarks":4,"K":3,"Gamma":-1,"Beta":1,"C":1,"Loss":"hinge","Tol":0.001,"MaxEpochs":1000}`)
		}), "Gamma = -1"},
		{"regression", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Task = "regression"; f.Header.Labels = nil }), "task regression, want binary"},
		{"short w", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "w", make([]float64, 23)) }), `array "w" has 23 elements, want 24`},
		{"short landmarks", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "landmarks", make([]float64, 7)) }), `array "landmarks" has 7 elements, want 8`},
		{"no coef", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Arrays = f.Arrays[:5] }), `no array "coef"`},
		{"no bias", learnertest.Rewrite(t, good, func(f *modelfile.File) { delete(f.Header.Meta, "bias") }), `no meta value "bias"`},
		{"more landmarks", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(strings.Replace(`{`+resolved+`}`, `"Landmarks":4`, `"Landmarks":5`, 1))
		}), `array "landmarks" has 8 elements, want 10`},
	}
	learnertest.LoadErrors(t, "pbrff: ", Load, cases)
	// The file with the resolved config spelt out loads.
	if _, err := Load(learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Config = []byte(`{` + resolved + `}`) })); err != nil {
		t.Errorf("resolved config: %v", err)
	}
}
