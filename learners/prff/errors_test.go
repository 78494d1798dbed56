package prff_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/prff"
)

func TestFitErrors(t *testing.T) {
	X, y := rings(20, 0, 0, 1, 1)
	cases := []struct {
		name string
		X    featmap.Matrix
		y    []float64
		cfg  prff.Config
		want string
	}{
		{"negative features", X, y, prff.Config{Features: -1}, "prff: Features = -1"},
		{"huge features", X, y, prff.Config{Features: prff.MaxFeatures + 1}, "Features = 65537, want 1..65536"},
		{"NaN gamma", X, y, prff.Config{Gamma: math.NaN()}, "prff: Gamma = NaN"},
		{"negative gamma", X, y, prff.Config{Gamma: -1}, "Gamma = -1"},
		{"Inf gamma", X, y, prff.Config{Gamma: math.Inf(1)}, "Gamma = +Inf"},
		{"negative lambda", X, y, prff.Config{Lambda: -1e-3}, "prff: Lambda = -0.001"},
		{"NaN lambda", X, y, prff.Config{Lambda: math.NaN()}, "Lambda = NaN"},
		{"unknown loss", X, y, prff.Config{Loss: "hinge"}, `prff: unknown Loss "hinge"`},
		{"logistic regression", X, y, prff.Config{Loss: prff.Logistic, Task: learners.Regression}, "logistic needs the binary task"},
		{"bad task", X, y, prff.Config{Task: 7}, "Task = Task(7)"},
		{"negative alpha", X, y, prff.Config{Alpha: -1}, "prff: Alpha = -1"},
		{"Inf alpha", X, y, prff.Config{Alpha: math.Inf(1)}, "Alpha = +Inf"},
		{"NaN freq lambda", X, y, prff.Config{FreqLambda: math.NaN()}, "prff: FreqLambda = NaN"},
		{"negative batch", X, y, prff.Config{Batch: -5}, "prff: Batch = -5, want 1..4096"},
		{"huge batch", X, y, prff.Config{Batch: prff.MaxBatch + 1}, "Batch = 4097"},
		{"negative iterations", X, y, prff.Config{MaxIter: -1}, "prff: MaxIter = -1"},
		{"negative tol", X, y, prff.Config{Tol: -1e-3}, "prff: Tol = -0.001"},
		{"coincident rows", featmap.Dense(20, 2, make([]float64, 40)), y, prff.Config{}, "bandwidth rule gives σ = 0"},
		{"one row", featmap.Dense(1, 2, []float64{1, 2}), []float64{3}, prff.Config{Task: learners.Regression}, "bandwidth rule needs at least 2 rows"},
	}
	learnertest.FitErrors(t, "prff: ", prff.Fit, cases)
}

func TestProgressAndContext(t *testing.T) {
	X, y := rings(50, 0, 0, 1, 2)
	var events []learners.Event
	cfg := prff.Config{Features: 10, Progress: func(e learners.Event) error {
		events = append(events, e)
		return nil
	}}
	fit(t, X, y, cfg)
	// One event per learned feature (its final Gram loss), then the solve.
	if len(events) != 11 || events[10].Round != 11 || events[10].Rounds != 11 || events[0].Method != "prff" {
		t.Fatalf("events %+v", events)
	}
	for i, e := range events {
		if e.Round != i+1 || !(e.Loss > 0) || (i > 0 && e.Elapsed < events[i-1].Elapsed) {
			t.Errorf("event %d: %+v", i, e)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good, err := fit(t, X, y, prff.Config{Features: 10}).MarshalBinary()
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
			f.Header.Config = []byte(`{"Features":10,"Gamma":1,"Alpha":1,"FreqLambda":1,"Batch":1,"MaxIter":1,"Tol":1,"Lambda":1,"Loss":"ridge","Task":"regression"}`)
		}), "config task regression, header task binary"},
		{"no losses", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Arrays = f.Arrays[:5] }), `no array "losses"`},
		{"NaN frequency", learnertest.Rewrite(t, good, func(f *modelfile.File) {
			w := make([]float64, 20)
			w[3] = math.NaN()
			learnertest.SetArray(f, "w", w)
		}), `array "w": element 3 is NaN`},
		{"short w", learnertest.Rewrite(t, good, func(f *modelfile.File) { learnertest.SetArray(f, "w", make([]float64, 19)) }), `array "w" has 19 elements, want 20`},
		{"no coef", learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Arrays = f.Arrays[:4] }), `no array "coef"`},
		{"no bias", learnertest.Rewrite(t, good, func(f *modelfile.File) { delete(f.Header.Meta, "bias") }), `no meta value "bias"`},
	}
	learnertest.LoadErrors(t, "prff: ", prff.Load, cases)
}

func TestLearnErrors(t *testing.T) {
	X, _ := rings(20, 0, 0, 1, 1)
	bad := append([]float64(nil), X.Data...)
	bad[5] = math.NaN()
	for _, c := range []struct {
		name string
		X    featmap.Matrix
		cfg  prff.Config
		want string
	}{
		{"NaN", featmap.Dense(20, 2, bad), prff.Config{}, "prff: X[2, 1] is NaN: inputs must be finite"},
		{"short", featmap.Dense(20, 2, X.Data[:30]), prff.Config{}, "needs 40 elements, has 30"},
		{"bad config", X, prff.Config{Features: -2}, "prff: Features = -2"},
		{"one row", featmap.Dense(1, 2, X.Data[:2]), prff.Config{}, "needs at least 2 rows"},
	} {
		m, err := prff.Learn(context.Background(), c.X, c.cfg)
		if err == nil || m != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, %v; want %q", c.name, m, err, c.want)
		}
	}
	// One row is fine with an explicit γ.
	if m, err := prff.Learn(context.Background(), featmap.Dense(1, 2, X.Data[:2]), prff.Config{Features: 3, Gamma: 1}); err != nil || m.Features() != 3 {
		t.Errorf("one row with Gamma: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prff.Learn(ctx, X, prff.Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
