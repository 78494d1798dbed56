package prff_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/prff"
)

// TestPrefix: the map learned with k features is the first k features of a
// longer one (greedy learning), bit for bit.
func TestPrefix(t *testing.T) {
	X := gaussian(t, 300, 6, 4)
	for _, phase := range []bool{false, true} {
		cfg := prff.Config{Features: 12, MaxIter: 200, Seed: 5, LearnPhase: phase}
		long, err := prff.Learn(context.Background(), X, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Features = 5
		short, err := prff.Learn(context.Background(), X, cfg)
		if err != nil {
			t.Fatal(err)
		}
		p, err := long.Prefix(5)
		if err != nil {
			t.Fatal(err)
		}
		w1, b1 := p.RFF().Weights()
		w2, b2 := short.RFF().Weights()
		if !slices.Equal(w1, w2) || !slices.Equal(b1, b2) || !slices.Equal(prff.Losses(p), prff.Losses(short)) || p.Gamma() != short.Gamma() {
			t.Errorf("LearnPhase=%v: Prefix(5) differs from a 5-feature Learn", phase)
		}
		if p.RFF().Scale() != math.Sqrt(2.0/5) {
			t.Errorf("prefix scale %v", p.RFF().Scale())
		}
		if _, err := long.Prefix(13); err == nil {
			t.Error("Prefix(13) of 12 features accepted")
		}
	}
}

// TestLearnPhase: LearnPhase moves the phases away from their random draw
// (a local descent from the same start may end higher or lower, so only
// the movement is checked).
func TestLearnPhase(t *testing.T) {
	X := gaussian(t, 256, 5, 6)
	a, err := prff.Learn(context.Background(), X, prff.Config{Features: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := prff.Learn(context.Background(), X, prff.Config{Features: 8, Seed: 1, LearnPhase: true})
	if err != nil {
		t.Fatal(err)
	}
	_, pa := a.RFF().Weights()
	_, pb := b.RFF().Weights()
	if slices.Equal(pa, pb) {
		t.Error("LearnPhase left every phase unchanged")
	}
	for _, l := range prff.Losses(b) {
		if !(l > 0) || math.IsInf(l, 0) {
			t.Errorf("loss %v", l)
		}
	}
}

// TestModelMap: the model's map acts on standardised inputs and its
// score is coef·z + bias.
func TestModelMap(t *testing.T) {
	X, y := sine(200, 3)
	m := fit(t, X, y, prff.Config{Task: learners.Regression, Features: 16, Seed: 2})
	fm := m.Map()
	coef, bias := m.Coef()
	if fm.RFF().Outputs() != 16 || fm.RFF().Inputs() != 2 || len(coef) != 16 || fm.Gamma() != m.Config().Gamma || fm.Alpha() != m.Config().Alpha {
		t.Fatalf("map %d→%d, γ %v α %v, config %+v", fm.RFF().Inputs(), fm.RFF().Outputs(), fm.Gamma(), fm.Alpha(), m.Config())
	}
	// Standardise by hand with the training statistics.
	var mean, sd [2]float64
	for i := 0; i < X.Rows; i++ {
		for k, v := range X.Row(i) {
			mean[k] += v / float64(X.Rows)
		}
	}
	for i := 0; i < X.Rows; i++ {
		for k, v := range X.Row(i) {
			sd[k] += (v - mean[k]) * (v - mean[k]) / float64(X.Rows)
		}
	}
	x := X.Row(7)
	xs := []float64{(x[0] - mean[0]) / math.Sqrt(sd[0]), (x[1] - mean[1]) / math.Sqrt(sd[1])}
	z := make([]float64, 16)
	if err := fm.RFF().Transform(featmap.Dense(1, 16, z), featmap.Dense(1, 2, xs)); err != nil {
		t.Fatal(err)
	}
	s := bias
	for j, v := range z {
		s += coef[j] * v
	}
	if got := m.Score(x); math.Abs(got-s) > 1e-9 {
		t.Errorf("Score %v, coef·z + bias %v", got, s)
	}
}

// TestWideAllocs: rows wider than the stack buffer use the pool and still
// allocate nothing.
func TestWideAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items on purpose")
	}
	X, y := rings(150, 70, 0, 1, 8)
	m := fit(t, X, y, prff.Config{Features: 8, MaxIter: 50})
	x := X.Row(1)
	dst := make([]float64, X.Rows)
	if a := testing.AllocsPerRun(100, func() { m.Predict(x) }); a != 0 {
		t.Errorf("Predict with d = 72: %v allocations", a)
	}
	if a := testing.AllocsPerRun(20, func() { _ = m.PredictBatch(dst, X) }); a != 0 {
		t.Errorf("PredictBatch with d = 72: %v allocations", a)
	}
	for i := range dst {
		if dst[i] != m.Predict(X.Row(i)) {
			t.Fatalf("row %d: batch and single differ", i)
		}
	}
}
