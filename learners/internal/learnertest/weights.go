package learnertest

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Weights checks a learner's weighted fit on the task's data (Rings3,
// Rings or Sine; 240 rows): weight 2 on every fifth row, 0 on another
// fifth, 1 elsewhere (Duplicated), must give the model fit
// without weights on the data with those rows duplicated and dropped —
// the same score on 100 fresh rows within tol (the order of the sums
// differs) and the same prediction where the score margin exceeds tol —
// while unit weights must differ from it by more than tol somewhere (the
// weights do something). Bad weights (negative, NaN, all 0, wrong length)
// are errors that start with prefix and name the weights.
func Weights(t *testing.T, task learners.Task, prefix string, tol float64,
	fit func(featmap.Matrix, []float64) (learners.Model, error),
	fitW func(featmap.Matrix, []float64, []float64) (learners.Model, error)) {
	t.Helper()
	var X, Xt featmap.Matrix
	var y []float64
	switch task {
	case learners.Multiclass:
		X, y = Rings3(240, 4)
		Xt, _ = Rings3(100, 5)
	case learners.Binary:
		X, y = Rings(240, 1, 3, 7, 4)
		Xt, _ = Rings(100, 1, 3, 7, 5)
	default:
		X, y = Sine(240, 4)
		Xt, _ = Sine(100, 5)
	}
	n := X.Rows
	w, Xd, yd := Duplicated(X, y)
	type scorer interface{ Score([]float64) float64 }
	mw, err := fitW(X, y, w)
	if err != nil {
		t.Fatal(err)
	}
	md, err := fit(Xd, yd)
	if err != nil {
		t.Fatal(err)
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	m1, err := fitW(X, y, ones)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for i := 0; i < Xt.Rows; i++ {
		x := Xt.Row(i)
		a, b, c := mw.(scorer).Score(x), md.(scorer).Score(x), m1.(scorer).Score(x)
		if math.Abs(a-b) > tol*math.Max(1, math.Abs(b)) {
			t.Fatalf("row %d: weighted score %v, duplicated %v", i, a, b)
		}
		if math.Abs(b) > tol && task != learners.Regression && mw.Predict(x) != md.Predict(x) {
			t.Fatalf("row %d: weighted predicts %v, duplicated %v", i, mw.Predict(x), md.Predict(x))
		}
		if math.Abs(c-b) > tol*math.Max(1, math.Abs(b)) {
			differs = true
		}
	}
	if !differs {
		t.Error("unit weights give the duplicated model: the weights change nothing")
	}
	neg, nan := append([]float64(nil), w...), append([]float64(nil), w...)
	neg[3], nan[4] = -1, math.NaN()
	for _, c := range []struct {
		w    []float64
		want string
	}{{neg, "w[3] is -1"}, {nan, "w[4] is NaN"}, {make([]float64, n), "every weight is 0"}, {w[:5], "5 weights for 240 rows"}} {
		if _, err := fitW(X, y, c.w); err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), "weights: "+c.want) {
			t.Errorf("weights %v…: %v, want %q", c.w[:min(6, len(c.w))], err, c.want)
		}
	}
}

// Duplicated returns the weights of Weights (2 on every fifth row from
// the first, 0 on every fifth from the fourth, 1 elsewhere: mean 1, so
// that relative weights (kit.RelativeWeights) are these counts) and
// the rows of X and y duplicated and dropped as those weights say.
func Duplicated(X featmap.Matrix, y []float64) (w []float64, Xd featmap.Matrix, yd []float64) {
	w = make([]float64, X.Rows)
	var xd []float64
	for i := range w {
		w[i] = 1
		switch {
		case i%5 == 0:
			w[i] = 2
		case i%5 == 3:
			w[i] = 0
		}
		for k := 0; k < int(w[i]); k++ {
			xd = append(xd, X.Row(i)...)
			yd = append(yd, y[i])
		}
	}
	return w, featmap.Dense(len(yd), X.Cols, xd), yd
}

// WeightsOf is Weights for a learner's Fit and FitWeighted with cfg.
func WeightsOf[C any, M learners.Model](t *testing.T, task learners.Task, prefix string, tol float64,
	fit func(context.Context, featmap.Matrix, []float64, C) (M, error),
	fitW func(context.Context, featmap.Matrix, []float64, []float64, C) (M, error), cfg C) {
	t.Helper()
	Weights(t, task, prefix, tol,
		func(X featmap.Matrix, y []float64) (learners.Model, error) {
			return fit(context.Background(), X, y, cfg)
		},
		func(X featmap.Matrix, y, w []float64) (learners.Model, error) {
			return fitW(context.Background(), X, y, w, cfg)
		})
}

// weighted runs Weights through the registry under each setting of
// Case.Weighted, and a fit with fractional weights.
func (s *suite) weighted(t *testing.T) {
	if s.meth.FitWeighted == nil {
		t.Fatalf("%s: FitWeighted not registered", s.c.Method)
	}
	for _, set := range s.c.Weighted {
		task, set := settings(t, set...)
		// a held-out search splits the rows, which differ between the
		// weighted and the duplicated data: the equivalence holds for the
		// fit of one setting
		for _, p := range learners.Params(s.meth.NewConfig()) {
			if p.Name == "search" {
				set = append(slices.Clone(set), "search=false")
			}
		}
		t.Run(strings.Join(set, ","), func(t *testing.T) {
			fit := func(X featmap.Matrix, y []float64) (learners.Model, error) {
				return s.meth.Fit(context.Background(), X, y, s.config(t, learners.Binary, set...), nil)
			}
			fitW := func(X featmap.Matrix, y, w []float64) (learners.Model, error) {
				return s.meth.FitWeighted(context.Background(), X, y, w, s.config(t, learners.Binary, set...), nil)
			}
			Weights(t, task, s.c.prefix(), 1e-6, fit, fitW)
			X, y := data(task, 60, 1)
			w := make([]float64, X.Rows)
			for i := range w {
				w[i] = float64(i%5) / 2
			}
			if _, err := fitW(X, y, w); err != nil {
				t.Errorf("fractional weights: %v", err)
			}
		})
	}
}

// relativeWeights checks, for a learner that registers FitWeighted, on
// every task it fits, that weights are relative: a uniform weight (2.5 on
// every row) gives the model of the fit without weights, and the weights
// of Duplicated times 4 the model of those weights — the same bytes.
func (s *suite) relativeWeights(t *testing.T) {
	for _, task := range s.c.tasks() {
		X, y := data(task, 80, 3)
		fitW := func(w []float64) []byte {
			t.Helper()
			m, err := s.meth.FitWeighted(context.Background(), X, y, w, s.config(t, task), nil)
			if err != nil {
				t.Fatalf("%v: %v", task, err)
			}
			return marshal(t, m)
		}
		m, err := s.meth.Fit(context.Background(), X, y, s.config(t, task), nil)
		if err != nil {
			t.Fatalf("%v: %v", task, err)
		}
		uniform := make([]float64, X.Rows)
		for i := range uniform {
			uniform[i] = 2.5
		}
		if !bytes.Equal(fitW(uniform), marshal(t, m)) {
			t.Errorf("%v: a weight of 2.5 on every row gives another model than no weights", task)
		}
		w, _, _ := Duplicated(X, y)
		w4 := make([]float64, len(w))
		for i, v := range w {
			w4[i] = 4 * v
		}
		if !bytes.Equal(fitW(w4), fitW(w)) {
			t.Errorf("%v: weights times 4 give another model than the weights", task)
		}
	}
}

// marshal returns m's file bytes.
func marshal(t testing.TB, m learners.Model) []byte {
	t.Helper()
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return data
}
