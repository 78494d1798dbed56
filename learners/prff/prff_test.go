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
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/prff"
)

func fit(t testing.TB, X featmap.Matrix, y []float64, cfg prff.Config) *prff.Model {
	t.Helper()
	if raceEnabled && cfg.MaxIter == 0 {
		cfg.MaxIter = 30 // the race detector slows learning ~10×; the thresholds still hold
	}
	return learnertest.MustFit(t, prff.Fit, X, y, cfg)
}

// TestFitErrors: the bandwidth rule's own failures (the Config checks
// run in the conformance suite).
func TestFitErrors(t *testing.T) {
	_, y := rings(20, 0, 0, 1, 1)
	cases := []learnertest.FitCase[prff.Config]{
		{Name: "coincident rows", X: featmap.Dense(20, 2, make([]float64, 40)), Y: y, Cfg: prff.Config{}, Want: "bandwidth rule gives σ = 0"},
		{Name: "one row", X: featmap.Dense(1, 2, []float64{1, 2}), Y: []float64{3}, Cfg: prff.Config{Task: learners.Regression}, Want: "bandwidth rule needs at least 2 rows"},
	}
	learnertest.FitErrors(t, "prff: ", prff.Fit, cases)
}

// TestLoadErrors: learned frequencies must be finite (the generic file
// checks run in the conformance suite).
func TestLoadErrors(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good := learnertest.Bytes(t, fit(t, X, y, prff.Config{Features: 10}))

	cases := []learnertest.LoadCase{
		{Name: "NaN frequency", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) {
			w := make([]float64, 20)
			w[3] = math.NaN()
			learnertest.SetArray(f, "w", w)
		}), Want: `array "w": element 3 is NaN`},
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
	if m, err := prff.Learn(context.Background(), featmap.Dense(1, 2, X.Data[:2]), prff.Config{Features: 3, Gamma: 1}); err != nil || m.RFF().Outputs() != 3 {
		t.Errorf("one row with Gamma: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prff.Learn(ctx, X, prff.Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
