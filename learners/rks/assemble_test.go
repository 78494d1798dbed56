package rks

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestAssembleEqualsFit: Assemble with a fitted model's standardisation,
// coefficients and bias rebuilds that model: the same predictions, scores
// and model file, bit for bit, for both tasks.
func TestAssembleEqualsFit(t *testing.T) {
	set := learnertest.Must(synth.Checkerboard(400, 0.1, 5))
	X := featmap.Dense(set.N, set.D, set.X)
	for _, cfg := range []Config{
		{Features: 40, Gamma: 2, Loss: Ridge, Seed: 9, Calibrate: learners.Disabled, Search: learners.Disabled},
		{Features: 30, Loss: Logistic, Seed: 2, Calibrate: learners.Disabled, Search: learners.Disabled},
		{Features: 20, Task: learners.Regression, Seed: 4, Search: learners.Disabled},
	} {
		y := set.Y
		if cfg.Task == learners.Regression {
			y = make([]float64, set.N)
			for i := range y {
				y[i] = math.Sin(3 * set.Row(i)[0])
			}
		}
		m, err := Fit(context.Background(), X, y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		mean, scale := m.Standardization()
		c := learners.Common{Task: cfg.Task, Labels: m.Labels(), Mean: mean, Scale: scale, Names: []string{"a", "b"}}
		a, err := Assemble(cfg, c, m.Body().Coef, m.Body().Bias)
		if err != nil {
			t.Fatal(err)
		}
		for i := range set.N {
			if p, q := m.Score(set.Row(i)), a.Score(set.Row(i)); math.Float64bits(p) != math.Float64bits(q) {
				t.Fatalf("%+v: row %d: Fit scores %v, Assemble %v", cfg, i, p, q)
			}
		}
		mf, _ := m.MarshalBinary()
		named, _ := learners.WithFeatureNames(m, []string{"a", "b"})
		nf, _ := named.MarshalBinary()
		af, _ := a.MarshalBinary()
		if string(af) != string(nf) || string(af) == string(mf) {
			t.Fatalf("%+v: model files differ from Fit's (with the same names)", cfg)
		}
	}
}

func TestAssembleErrors(t *testing.T) {
	ok := learners.Common{Labels: learners.Labels{Neg: 0, Pos: 1}, Mean: []float64{0, 1}, Scale: []float64{1, 2}}
	coef := make([]float64, 3)
	cfg := Config{Features: 3, Loss: Ridge}
	if _, err := Assemble(cfg, ok, coef, 0.5); err != nil {
		t.Fatalf("valid parts: %v", err)
	}
	for _, tc := range []struct {
		name string
		mod  func(c *learners.Common, cfg *Config, coef *[]float64, bias *float64)
		want string
	}{
		{"bad cfg", func(_ *learners.Common, cfg *Config, _ *[]float64, _ *float64) { cfg.Features = -1 }, "Features"},
		{"no inputs", func(c *learners.Common, _ *Config, _ *[]float64, _ *float64) { c.Mean, c.Scale = nil, nil }, "no inputs"},
		{"scale len", func(c *learners.Common, _ *Config, _ *[]float64, _ *float64) { c.Scale = c.Scale[:1] }, "len(Scale)"},
		{"zero scale", func(c *learners.Common, _ *Config, _ *[]float64, _ *float64) { c.Scale = []float64{1, 0} }, "input 1"},
		{"NaN mean", func(c *learners.Common, _ *Config, _ *[]float64, _ *float64) { c.Mean = []float64{math.NaN(), 0} }, "input 0"},
		{"task", func(c *learners.Common, _ *Config, _ *[]float64, _ *float64) { c.Task = learners.Regression }, "Task"},
		{"labels", func(c *learners.Common, _ *Config, _ *[]float64, _ *float64) {
			c.Labels = learners.Labels{Neg: 1, Pos: 1}
		}, "labels"},
		{"coef len", func(_ *learners.Common, _ *Config, coef *[]float64, _ *float64) { *coef = (*coef)[:2] }, "2 coefficients for 3"},
		{"coef NaN", func(_ *learners.Common, _ *Config, coef *[]float64, _ *float64) { *coef = []float64{0, math.Inf(1), 0} }, "coef[1]"},
		{"bias", func(_ *learners.Common, _ *Config, _ *[]float64, bias *float64) { *bias = math.NaN() }, "bias"},
	} {
		c, cf, co, b := ok, cfg, append([]float64(nil), coef...), 0.5
		tc.mod(&c, &cf, &co, &b)
		if _, err := Assemble(cf, c, co, b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
