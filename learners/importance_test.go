package learners_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
	"github.com/rfkit/rfkit/metrics"
)

// se1 returns n rows of SE1: its 18 inputs, and its target (sine = false)
// or the additive target Σ sin(x_j) + ε over the same five relevant inputs
// and the same noise ε (sine = true), which a model with an isotropic
// kernel can learn from a few thousand rows.
func se1(n int, seed uint64, sine bool) (featmap.Matrix, []float64) {
	s := learnertest.Must(synth.ByName("se1", n, seed))
	if sine {
		for i := range s.Y {
			x := s.Row(i)
			a := float64(x[0]+x[2]) * float64(x[0]+x[2])
			eps := s.Y[i] - float64(math.Sin(a)*math.Sin(float64(float64(x[6]*x[7])*x[8])))
			s.Y[i] = eps
			for _, j := range s.Relevant {
				s.Y[i] += math.Sin(x[j])
			}
		}
	}
	return featmap.Dense(s.N, s.D, s.X), s.Y
}

// top returns the k inputs of largest mean drop, in increasing order.
func top(imp *learners.Importances, k int) []int {
	order := make([]int, len(imp.Mean))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return imp.Mean[order[a]] > imp.Mean[order[b]] })
	out := slices.Clone(order[:k])
	slices.Sort(out)
	return out
}

func fitGBRFF2(t *testing.T, X featmap.Matrix, y []float64) learners.Model {
	t.Helper()
	m, err := gbrff.Fit(context.Background(), X, y, gbrff.Config{Task: learners.Regression, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func fitRKS(t *testing.T, X featmap.Matrix, y []float64, task learners.Task) learners.Model {
	t.Helper()
	m, err := rks.Fit(context.Background(), X, y, rks.Config{Task: task, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPermutationImportanceSE1: on SE1's inputs, with the additive target
// on its five relevant inputs (x1, x3, x7, x8, x9), gbrff2 and rks with
// their defaults, fitted on 3000 rows, rank the five first on 1000
// held-out rows (measured drops of RMSE: 0.61–0.66 for gbrff2, 0.19–0.25
// for rks, every other input below 0.02). On SE1 itself neither learns
// the target (held-out RMSE 0.31–0.36 for gbrff2 and 0.28–0.33 for rks on
// n = 3000 to 20 000, against 0.278 for the mean; SRFF, built for it,
// reaches 0.265 at n = 1000), so no importance can rank all five first:
// what gbrff2 does use is the factor sin(x7·x8·x9), and those three
// inputs come first (drops 0.02–0.04, every other one below 0.01).
func TestPermutationImportanceSE1(t *testing.T) {
	relevant := []int{0, 2, 6, 7, 8} // SE1's x₁, x₃, x₇, x₈, x₉
	X, y := se1(3000, 1, true)
	Xt, yt := se1(1000, 2, true)
	for name, m := range map[string]learners.Model{"gbrff2": fitGBRFF2(t, X, y), "rks": fitRKS(t, X, y, learners.Regression)} {
		imp, err := learners.PermutationImportance(context.Background(), m, Xt, yt, learners.PermutationConfig{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := top(imp, 5); !slices.Equal(got, relevant) || imp.Metric != "rmse" || imp.Repeats != limit.DefaultRepeats {
			t.Errorf("%s: top five %v (metric %s, %d repeats), want %v; drops %.3g", name, got, imp.Metric, imp.Repeats, relevant, imp.Mean)
		}
	}

	X, y = se1(3000, 1, false)
	Xt, yt = se1(1000, 2, false)
	imp, err := learners.PermutationImportance(context.Background(), fitGBRFF2(t, X, y), Xt, yt, learners.PermutationConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := top(imp, 3); !slices.Equal(got, []int{6, 7, 8}) {
		t.Errorf("SE1, gbrff2: top three %v, want [6 7 8] (x7, x8, x9); drops %.3g", got, imp.Mean)
	}
}

// TestPermutationImportanceClassifier: rks on the rings (inputs 0 and 1)
// with four pure-noise inputs ranks the two ring inputs first, by accuracy
// and by log loss; the baseline is the metric of the model on the data.
func TestPermutationImportanceClassifier(t *testing.T) {
	X, y := learnertest.Rings(600, 4, -1, 1, 1)
	Xt, yt := learnertest.Rings(400, 4, -1, 1, 2)
	m := fitRKS(t, X, y, learners.Binary)
	pred := make([]float64, Xt.Rows)
	if err := m.PredictBatch(pred, Xt); err != nil {
		t.Fatal(err)
	}
	acc, _ := metrics.Accuracy(yt, pred, nil)
	for _, metric := range []string{"", "logloss"} {
		imp, err := learners.PermutationImportance(context.Background(), m, Xt, yt, learners.PermutationConfig{Metric: metric, Repeats: 3, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		if got := top(imp, 2); !slices.Equal(got, []int{0, 1}) || imp.Repeats != 3 || len(imp.Std) != 6 {
			t.Errorf("metric %q: top two %v, want [0 1]; drops %.3g", metric, got, imp.Mean)
		}
		if metric == "" && (imp.Metric != "accuracy" || imp.Baseline != acc) {
			t.Errorf("metric %s, baseline %v; want accuracy %v", imp.Metric, imp.Baseline, acc)
		}
		if metric != "" && (imp.Metric != metric || !(imp.Baseline > 0)) {
			t.Errorf("metric %s, baseline %v", imp.Metric, imp.Baseline)
		}
	}
}

// TestPermutationImportanceDeterministic: the same bits for any Threads and
// GOMAXPROCS; another seed gives other shuffles.
func TestPermutationImportanceDeterministic(t *testing.T) {
	X, y := se1(400, 1, true)
	m := fitRKS(t, X, y, learners.Regression)
	run := func(threads learners.Threads, seed uint64) *learners.Importances {
		imp, err := learners.PermutationImportance(context.Background(), m, X, y, learners.PermutationConfig{Repeats: 3, Seed: seed, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		return imp
	}
	want := run(1, 5)
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, x := range v {
			out[i] = math.Float64bits(x)
		}
		return out
	}
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		for _, th := range []learners.Threads{0, 1, 2, 3} {
			got := run(th, 5)
			if !slices.Equal(bits(got.Mean), bits(want.Mean)) || !slices.Equal(bits(got.Std), bits(want.Std)) || got.Baseline != want.Baseline {
				t.Errorf("GOMAXPROCS %d, Threads %d: %v ± %v, want %v ± %v", procs, th, got.Mean, got.Std, want.Mean, want.Std)
			}
		}
		runtime.GOMAXPROCS(old)
	}
	if other := run(0, 6); slices.Equal(other.Mean, want.Mean) {
		t.Error("seeds 5 and 6 gave the same drops")
	}
}

// TestPermutationImportanceErrors: bad input is an error naming it, never a
// panic.
func TestPermutationImportanceErrors(t *testing.T) {
	X, y := se1(60, 1, true)
	reg := fitRKS(t, X, y, learners.Regression)
	Xc, yc := learnertest.Rings(60, 1, 3, 7, 1)
	cls := fitRKS(t, Xc, yc, learners.Binary)
	nan := slices.Clone(X.Data)
	nan[5] = math.NaN()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	bg := context.Background()
	for _, c := range []struct {
		name string
		ctx  context.Context
		m    learners.Model
		X    featmap.Matrix
		y    []float64
		cfg  learners.PermutationConfig
		want string
		is   error
	}{
		{"nil model", bg, nil, X, y, learners.PermutationConfig{}, "no model", nil},
		{"columns", bg, reg, Xc, yc, learners.PermutationConfig{}, "X has 3 columns, the model 18 inputs", learners.ErrShape},
		{"malformed", bg, reg, featmap.Dense(60, 18, X.Data[:100]), y, learners.PermutationConfig{}, "needs", learners.ErrShape},
		{"one row", bg, reg, featmap.Dense(1, 18, X.Data[:18]), y[:1], learners.PermutationConfig{}, "X has 1 rows: shuffling needs at least 2", nil},
		{"ragged y", bg, reg, X, y[:59], learners.PermutationConfig{}, "X has 60 rows but y has 59 values", nil},
		{"repeats", bg, reg, X, y, learners.PermutationConfig{Repeats: -1}, "Repeats = -1", nil},
		{"threads", bg, reg, X, y, learners.PermutationConfig{Threads: -2}, "Threads = -2", nil},
		{"tasks", bg, reg, X, y, learners.PermutationConfig{Repeats: limit.Count}, "18 inputs × 1000000 shuffles: more than 1000000 tasks", nil},
		{"unknown metric", bg, reg, X, y, learners.PermutationConfig{Metric: "auc"}, `unknown metric "auc"`, nil},
		{"rmse of a classifier", bg, cls, Xc, yc, learners.PermutationConfig{Metric: "rmse"}, `metric "rmse" does not apply to a binary model`, nil},
		{"log loss of a regression", bg, reg, X, y, learners.PermutationConfig{Metric: "logloss"}, `metric "logloss" does not apply to a regression model`, nil},
		{"foreign label", bg, cls, Xc, append(slices.Clone(yc[:59]), 5), learners.PermutationConfig{}, "y[59] is 5, not one of the model's classes [3 7]", nil},
		{"NaN label", bg, reg, X, append(slices.Clone(y[:59]), math.NaN()), learners.PermutationConfig{}, "y[59] is NaN", metrics.ErrInput},
		{"NaN input", bg, reg, featmap.Dense(60, 18, nan), y, learners.PermutationConfig{}, "is NaN", learners.ErrNotFinite},
		{"cancelled", cancelled, reg, X, y, learners.PermutationConfig{}, "context canceled", context.Canceled},
	} {
		imp, err := learners.PermutationImportance(c.ctx, c.m, c.X, c.y, c.cfg)
		if err == nil || imp != nil || !strings.HasPrefix(err.Error(), "permutation importance: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, %v; want an error with %q", c.name, imp, err, c.want)
		} else if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v does not wrap %v", c.name, err, c.is)
		}
	}
}

// cancelling is a model that cancels a context after calls predictions.
type cancelling struct {
	learners.Model
	calls  atomic.Int64
	after  int64
	cancel context.CancelFunc
}

func (c *cancelling) Predict(x []float64) float64 {
	if c.calls.Add(1) == c.after {
		c.cancel()
	}
	return c.Model.Predict(x)
}

// TestPermutationImportanceCancel: a context cancelled during the shuffles
// stops the work (each later task is skipped) and is the error.
func TestPermutationImportanceCancel(t *testing.T) {
	X, y := se1(200, 1, true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := &cancelling{Model: fitRKS(t, X, y, learners.Regression), after: 500, cancel: cancel}
	imp, err := learners.PermutationImportance(ctx, m, X, y, learners.PermutationConfig{Repeats: 10, Threads: 2})
	if imp != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, %v; want context.Canceled", imp, err)
	}
	// 18 inputs × 10 shuffles × 200 rows would be 36 000 predictions; a
	// task in progress finishes its 200 rows
	if n := m.calls.Load(); n > 500+2*200 {
		t.Errorf("%d predictions after the cancel at 500", n)
	}
}
