package cv_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// rings: class 0 near radius 1, class 1 near radius 2 (radial noise
// 0.15; learnertest.Rings).
func rings(n int, seed uint64) (featmap.Matrix, []float64) {
	return learnertest.Rings(n, 0, 0, 1, seed)
}

// sine: n rows uniform on [−2, 2]², targets sin(2x₁) + 0.05·noise.
func sine(n int) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(3, 4))
	X, y := make([]float64, 2*n), make([]float64, n)
	for i := range y {
		X[2*i], X[2*i+1] = 4*r.Float64()-2, 4*r.Float64()-2
		y[i] = math.Sin(2*X[2*i]) + 0.05*r.NormFloat64()
	}
	return featmap.Dense(n, 2, X), y
}

// constModel predicts v for every row.
type constModel struct {
	v    float64
	task learners.Task
}

func (m constModel) NumInputs() int              { return 2 }
func (m constModel) Task() learners.Task         { return m.task }
func (m constModel) Predict(x []float64) float64 { return m.v }
func (m constModel) PredictBatch(dst []float64, X featmap.Matrix) error {
	for i := range dst {
		dst[i] = m.v
	}
	return nil
}
func (m constModel) MarshalBinary() ([]byte, error) { return nil, errors.New("not stored") }

func constant(name string, v float64, task learners.Task) cv.Candidate {
	return cv.Candidate{Name: name, Fit: func(context.Context, featmap.Matrix, []float64) (learners.Model, error) {
		return constModel{v, task}, nil
	}}
}

func rksGrid(t *testing.T, grid map[string][]string) []cv.Candidate {
	t.Helper()
	meth := learnertest.Lookup(t, "rks")
	vs, err := cv.Expand(&rks.Config{Features: 40}, grid)
	if err != nil {
		t.Fatal(err)
	}
	return cv.Candidates(meth, vs)
}

func TestGridSearchBinary(t *testing.T) {
	X, y := rings(200, 1)
	// γ = 1e-4 makes the kernel almost linear (chance level on rings);
	// γ = 1 separates them; the constant predictor scores 0.5 exactly.
	grid := append(rksGrid(t, map[string][]string{"gamma": {"1e-4", "1"}}), constant("always 1", 1, learners.Binary))
	res, err := cv.GridSearch(context.Background(), X, y, learners.Binary, grid, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	if res.Best != 1 || len(res.Scores) != 3 || len(res.Scores[0]) != 5 || res.Mean[1] < 0.95 || res.Mean[2] != 0.5 {
		t.Fatalf("result %+v", res)
	}
	if grid[1].Name != "gamma=1" {
		t.Errorf("candidate name %q", grid[1].Name)
	}
	again, err := cv.GridSearch(context.Background(), X, y, learners.Binary, grid, 5, 7)
	if err != nil || !reflect.DeepEqual(again, res) {
		t.Errorf("not deterministic: %+v vs %+v", again, res)
	}
}

func TestGridSearchRegression(t *testing.T) {
	X, y := sine(150)
	grid := append([]cv.Candidate{constant("zero", 0, learners.Regression)},
		rksGrid(t, map[string][]string{"task": {"regression"}, "lambda": {"1e-4"}})...)
	res, err := cv.GridSearch(context.Background(), X, y, learners.Regression, grid, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Best != 1 || !(res.Mean[1] > -0.3) || !(res.Mean[0] < -0.5) {
		t.Fatalf("result %+v", res)
	}
}

func TestGridSearchNaNRanksLast(t *testing.T) {
	X, y := rings(20, 2)
	grid := []cv.Candidate{constant("nan", math.NaN(), learners.Regression), constant("one", 1, learners.Regression)}
	res, err := cv.GridSearch(context.Background(), X, y, learners.Regression, grid, 2, 1)
	if err != nil || res.Best != 1 || !math.IsNaN(res.Mean[0]) {
		t.Fatalf("%+v, %v", res, err)
	}
}

func TestGridSearchErrors(t *testing.T) {
	X, y := rings(20, 3)
	ok := []cv.Candidate{constant("c", 1, learners.Binary)}
	three := append([]float64(nil), y...)
	three[0] = 2
	rare := make([]float64, 20)
	rare[0], rare[1] = 1, 1
	failing := []cv.Candidate{{Name: "bad", Fit: func(context.Context, featmap.Matrix, []float64) (learners.Model, error) {
		return nil, errors.New("boom")
	}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name  string
		ctx   context.Context
		y     []float64
		task  learners.Task
		grid  []cv.Candidate
		folds int
		want  string
	}{
		{"one fold", nil, y, learners.Binary, ok, 1, "1 folds for 20 samples"},
		{"too many folds", nil, y, learners.Binary, ok, 21, "21 folds for 20 samples"},
		{"empty grid", nil, y, learners.Binary, nil, 5, "empty grid"},
		{"ragged", nil, y[:19], learners.Binary, ok, 5, "X has 20 rows but y has 19"},
		{"three classes", nil, three, learners.Binary, ok, 5, "more than two classes"},
		{"rare class", nil, rare, learners.Binary, ok, 5, "cv: dataset"},
		{"bad task", nil, y, learners.Task(9), ok, 5, "invalid task"},
		{"failing fit", nil, y, learners.Binary, failing, 5, `cv: candidate "bad", fold 1 of 5: boom`},
		{"cancelled", ctx, y, learners.Binary, ok, 5, "context canceled"},
	} {
		ctx := c.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		if _, err := cv.GridSearch(ctx, X, c.y, c.task, c.grid, c.folds, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	bad := featmap.Dense(20, 2, append([]float64(nil), X.Data...))
	bad.Data[5] = math.Inf(1)
	if _, err := cv.GridSearch(context.Background(), bad, y, learners.Binary, ok, 5, 1); err == nil || !strings.Contains(err.Error(), "X[2, 1] is +Inf") {
		t.Errorf("Inf in X: %v", err)
	}
}

func TestMetrics(t *testing.T) {
	X, y := rings(10, 4)
	if a, err := cv.Accuracy(constModel{1, learners.Binary}, X, y); err != nil || a != 0.5 {
		t.Errorf("Accuracy = %v, %v", a, err)
	}
	if r, err := cv.RMSE(constModel{0.5, learners.Regression}, X, y); err != nil || r != 0.5 {
		t.Errorf("RMSE = %v, %v", r, err)
	}
	if _, err := cv.RMSE(constModel{0, learners.Regression}, featmap.Dense(10, 1, y), y); err == nil || !strings.Contains(err.Error(), "1 columns, the model takes 2") {
		t.Errorf("RMSE shape: %v", err)
	}
	if _, err := cv.Accuracy(constModel{0, learners.Binary}, X, y[:3]); err == nil {
		t.Error("Accuracy accepted a short y")
	}
}

func TestExpand(t *testing.T) {
	base := &rks.Config{Features: 7, Seed: 3}
	vs, err := cv.Expand(base, map[string][]string{"Lambda": {"0.1", "1"}, "gamma": {"2", "3", "4"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vs {
		names = append(names, v.Name)
	}
	want := []string{
		"gamma=2,lambda=0.1", "gamma=2,lambda=1", "gamma=3,lambda=0.1",
		"gamma=3,lambda=1", "gamma=4,lambda=0.1", "gamma=4,lambda=1",
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("names %q", names)
	}
	c := vs[3].Config.(*rks.Config)
	if c.Gamma != 3 || c.Lambda != 1 || c.Features != 7 || c.Seed != 3 || !reflect.DeepEqual(*base, rks.Config{Features: 7, Seed: 3}) {
		t.Errorf("variant %+v, base %+v", c, base)
	}
	if vs, err := cv.Expand(base, nil); err != nil || len(vs) != 1 || vs[0].Name != "" || vs[0].Config == any(base) {
		t.Errorf("empty grid: %v, %v", vs, err)
	}
	big := map[string][]string{}
	for _, k := range []string{"features", "gamma", "lambda", "seed", "loss", "task"} {
		big[k] = make([]string, 10)
	}
	for _, c := range []struct {
		base any
		grid map[string][]string
		want string
	}{
		{*base, nil, "non-nil pointer to a struct"},
		{base, map[string][]string{"nope": {"1"}}, `unknown parameter "nope"`},
		{base, map[string][]string{"gamma": {"x"}}, `"x" is not a number`},
		{base, map[string][]string{"gamma": {}}, `"gamma" has no values`},
		{base, map[string][]string{"gamma": {"1"}, "Gamma": {"2"}}, "given twice"},
		{base, big, "more than 100000 variants"},
	} {
		if _, err := cv.Expand(c.base, c.grid); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.grid, err, c.want)
		}
	}
}
