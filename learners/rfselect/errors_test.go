package rfselect_test

import (
	"math"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rfselect"
)

func TestFitErrors(t *testing.T) {
	X, y := rings(20, 0, 0, 1, 1)
	cases := []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  rfselect.Config
		want string
	}{
		{"unknown selection", X, y, rfselect.Config{Selection: "top"}, `rfselect: unknown Selection "top"`},
		{"few candidates", X, y, rfselect.Config{Features: 10, Candidates: 5}, "Candidates = 5 is below Features = 10"},
		{"few candidates default M", X, y, rfselect.Config{Candidates: 50}, "Candidates = 50 is below Features = 100"},
		{"negative rho", X, y, rfselect.Config{Rho: -1}, "rfselect: Rho = -1"},
		{"negative features", X, y, rfselect.Config{Features: -1}, "rfselect: Features = -1"},
		{"huge features", X, y, rfselect.Config{Features: rfselect.MaxFeatures + 1}, "Features = 65537, want 1..65536"},
		{"NaN gamma", X, y, rfselect.Config{Gamma: math.NaN()}, "rfselect: Gamma = NaN"},
		{"negative gamma", X, y, rfselect.Config{Gamma: -1}, "Gamma = -1"},
		{"Inf gamma", X, y, rfselect.Config{Gamma: math.Inf(1)}, "Gamma = +Inf"},
		{"negative lambda", X, y, rfselect.Config{Lambda: -1e-3}, "rfselect: Lambda = -0.001"},
		{"NaN lambda", X, y, rfselect.Config{Lambda: math.NaN()}, "Lambda = NaN"},
		{"unknown loss", X, y, rfselect.Config{Loss: "hinge"}, `rfselect: unknown Loss "hinge"`},
		{"logistic regression", X, y, rfselect.Config{Loss: rfselect.Logistic, Task: learners.Regression}, "logistic needs the binary task"},
		{"bad task", X, y, rfselect.Config{Task: 7}, "Task = Task(7)"},
	}
	learnertest.FitErrors(t, "rfselect: ", rfselect.Fit, cases)
}

func TestProgressAndContext(t *testing.T) {
	X, y := rings(50, 0, 0, 1, 2)
	var events []learners.Event
	cfg := rfselect.Config{Features: 10, Progress: func(e learners.Event) error {
		events = append(events, e)
		return nil
	}}
	fit(t, X, y, cfg)
	if len(events) != 3 || events[0].Round != 1 || events[2].Round != 3 || events[2].Rounds != 3 ||
		events[0].Method != "eerf" || !math.IsNaN(events[0].Loss) || !(events[2].Loss > 0) || events[2].Elapsed < events[0].Elapsed {
		t.Errorf("events %+v", events)
	}
}

func TestLoadErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good, err := fit(t, X, y, rfselect.Config{Features: 10}).MarshalBinary()
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
		{"selection mismatch", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Selection":"lkrf","Features":10,"Candidates":200,"Gamma":1,"Rho":1,"Lambda":1,"Loss":"ridge"}`)
		}), `config selection "lkrf" in a "eerf" model`},
		{"task mismatch", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			f.Header.Config = []byte(`{"Selection":"eerf","Features":10,"Candidates":200,"Gamma":1,"Rho":1,"Lambda":1,"Loss":"ridge","Task":"regression"}`)
		}), "config task regression, header task binary"},
		{"short w", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "w", make([]float64, 19)) }), `array "w" has 19 elements, want 20`},
		{"no coef", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Arrays = f.Arrays[:4] }), `no array "coef"`},
		{"no bias", learnertest.Rewrite(t, good, func(f *modelfile.File) { delete(f.Header.Meta, "bias") }), `no meta value "bias"`},
	}
	learnertest.LoadErrors(t, "rfselect: ", rfselect.Load, cases)
}
