package learnertest

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners"
)

// Rings3 returns n rows of three inputs: three noisy concentric rings
// (radii 1, 2 and 3, radial noise 0.15) in the first two, labelled 10, 20
// and 30 in turn, and pure noise in the third. No linear classifier
// separates them; a Gaussian kernel does almost perfectly. The values are
// the same bits on every architecture (internal/xrand normals, no
// fusable product).
func Rings3(n int, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	X, y := make([]float64, 3*n), make([]float64, n)
	for i := range y {
		k := i % 3
		rad := float64(k+1) + float64(0.15*xrand.Normal(r))
		g1, g2 := xrand.Normal(r), xrand.Normal(r)
		sc := rad / math.Sqrt(float64(g1*g1)+float64(g2*g2))
		X[3*i], X[3*i+1], X[3*i+2] = sc*g1, sc*g2, xrand.Normal(r)
		y[i] = float64(10 * (k + 1))
	}
	return featmap.Dense(n, 3, X), y
}

// classModel is what every multiclass model of a learner offers.
type classModel interface {
	learners.ClassModel
	Score(x []float64) float64
	Probability(x []float64) float64
	PredictChecked(x []float64) (float64, error)
	ProbabilityBatch(dst []float64, X featmap.Matrix) error
}

// Multiclass fits a multiclass model on 600 rows of Rings3 and checks it:
// the task and classes, test accuracy ≥ min on 600 fresh rows,
// Probabilities (one per class, in [0, 1], summing to 1 within 1e-12, the
// largest at Predict's class), the batch forms equal to the single-row
// ones, a NaN Probability, the errors of Probabilities, no allocation in
// Predict and Probabilities, and a model file round trip with the same
// bits (load must decode what MarshalBinary wrote). It returns the model.
func Multiclass[M learners.Model](t *testing.T, min float64, fit func(featmap.Matrix, []float64) (learners.Model, error), load func([]byte) (M, error)) learners.Model {
	t.Helper()
	X, y := Rings3(600, 1)
	mm, err := fit(X, y)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := mm.(classModel)
	if !ok {
		t.Fatalf("%T is not a multiclass model", mm)
	}
	if m.Task() != learners.Multiclass || !slices.Equal(m.Classes(), []float64{10, 20, 30}) {
		t.Fatalf("task %v, classes %v", m.Task(), m.Classes())
	}
	Xt, yt := Rings3(600, 2)
	if acc := Accuracy(m, Xt, yt); acc < min {
		t.Errorf("test accuracy %.3f, want ≥ %v", acc, min)
	}
	p := make([]float64, 3)
	pred := make([]float64, Xt.Rows)
	if err := m.PredictBatch(pred, Xt); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < Xt.Rows; i++ {
		x := Xt.Row(i)
		if err := m.Probabilities(p, x); err != nil {
			t.Fatal(err)
		}
		var sum float64
		best := 0
		for k, v := range p {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("row %d: probabilities %v", i, p)
			}
			sum += v
			if v > p[best] {
				best = k
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("row %d: probabilities %v sum to %v", i, p, sum)
		}
		if got := m.Predict(x); got != pred[i] || got != m.Classes()[best] {
			t.Fatalf("row %d: Predict %v, batch %v, most probable %v (%v)", i, got, pred[i], m.Classes()[best], p)
		}
		if v, err := m.PredictChecked(x); err != nil || v != pred[i] {
			t.Fatalf("row %d: PredictChecked %v, %v", i, v, err)
		}
		if !(m.Score(x) >= 0) || !math.IsNaN(m.Probability(x)) {
			t.Fatalf("row %d: Score %v (the margin, ≥ 0), Probability %v (NaN)", i, m.Score(x), m.Probability(x))
		}
	}
	for _, c := range []struct {
		dst, x []float64
	}{{make([]float64, 2), Xt.Row(0)}, {p, []float64{1, 2}}} {
		if err := m.Probabilities(c.dst, c.x); err == nil {
			t.Errorf("Probabilities(len %d, len %d) accepted", len(c.dst), len(c.x))
		}
	}
	x := slices.Clone(Xt.Row(0))
	// Under -race sync.Pool drops scratch on purpose (raceEnabled).
	if a := testing.AllocsPerRun(50, func() { m.Predict(x); _ = m.Probabilities(p, x) }); a != 0 && !raceEnabled {
		t.Errorf("Predict and Probabilities allocate %v times", a)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := load(data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := back.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("round trip: %v, same bytes %v", err, bytes.Equal(again, data))
	}
	b := any(back).(classModel)
	q := make([]float64, 3)
	for i := 0; i < 50; i++ {
		_ = m.Probabilities(p, Xt.Row(i))
		_ = b.Probabilities(q, Xt.Row(i))
		if b.Predict(Xt.Row(i)) != pred[i] || !slices.Equal(p, q) || b.Score(Xt.Row(i)) != m.Score(Xt.Row(i)) {
			t.Fatalf("row %d: the loaded model predicts differently", i)
		}
	}
	return mm
}

// DatasetPath is the shared data sets' directory, relative to a learner
// package's directory (learners/<pkg>): ../shared/datasets from the root
// of the worktree. RFKIT_DATASETS overrides it.
func DatasetPath() string {
	if p := os.Getenv("RFKIT_DATASETS"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "..", "shared", "datasets")
}

// MulticlassSets are the four multiclass data sets of the benchmarks, with the
// measured mean test accuracy of the better of XGBoost and an RBF SVC
// over 10 stratified 70/30 splits (the figures).
var MulticlassSets = []struct {
	Name      string
	Reference float64
}{{"wine", 0.987}, {"balance", 0.903}, {"vehicle", 0.767}, {"newthyroid", 0.946}}

// MulticlassAccuracy returns the mean test accuracy of fit over splits
// stratified 70/30 splits (seeds 1..splits) of the data set
// <DatasetPath>/<name>/<name>_multiclass.csv, with the rows of each split
// as the learner gets them (it standardises). It skips the test when the
// file is absent (a fresh clone has no shared data sets).
func MulticlassAccuracy(t testing.TB, name string, splits int, fit func(featmap.Matrix, []float64) (learners.Model, error)) float64 {
	t.Helper()
	path := filepath.Join(DatasetPath(), name, name+"_multiclass.csv")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s: %v", name, err)
	}
	ds, err := dataset.LoadCSV(path, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for s := 1; s <= splits; s++ {
		train, test := dataset.StratifiedSplit(ds.Y, 0.3, uint64(s))
		tr, te := ds.Subset(train), ds.Subset(test)
		m, err := fit(tr.Matrix(), tr.Y)
		if err != nil {
			t.Fatalf("%s split %d: %v", name, s, err)
		}
		sum += Accuracy(m, te.Matrix(), te.Y)
	}
	return sum / float64(splits)
}

// WithMissing returns a copy of X with every k-th value (in row-major
// order) replaced by NaN, a missing value.
func WithMissing(X featmap.Matrix, k int) featmap.Matrix {
	out := make([]float64, X.Rows*X.Cols)
	for i := 0; i < X.Rows; i++ {
		copy(out[i*X.Cols:(i+1)*X.Cols], X.Row(i))
	}
	for i := k - 1; i < len(out); i += k {
		out[i] = math.NaN()
	}
	return featmap.Dense(X.Rows, X.Cols, out)
}

// FracWeights returns n fractional row weights 0, ½, 1, 1½, 0, … (the
// golden files' weights: every fourth row dropped, the rest fractional).
func FracWeights(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = float64(i%4) / 2
	}
	return w
}

// WeightedMissing returns the data of the weighted, imputed multiclass
// golden files: Rings3(150, 7) with every fifth value missing
// (WithMissing) and FracWeights.
func WeightedMissing() (Xn featmap.Matrix, y, w []float64) {
	X, y := Rings3(150, 7)
	return WithMissing(X, 5), y, FracWeights(X.Rows)
}

// MulticlassFit returns fit with cfg and the Multiclass task (set through
// learners.SetParam), in the form Multiclass and MulticlassAccuracy take.
func MulticlassFit[C any, M learners.Model](fit func(context.Context, featmap.Matrix, []float64, C) (M, error), cfg C) func(featmap.Matrix, []float64) (learners.Model, error) {
	err := learners.SetParam(&cfg, "task", "multiclass")
	return func(X featmap.Matrix, y []float64) (learners.Model, error) {
		if err != nil {
			return nil, err
		}
		return fit(context.Background(), X, y, cfg)
	}
}

// MulticlassAtLeast checks the mean test accuracy of fit over 3
// stratified 70/30 splits (MulticlassAccuracy) of each of MulticlassSets
// against min, in the order of MulticlassSets; name starts the log and
// error lines. It skips in -short mode and without the data sets.
func MulticlassAtLeast(t *testing.T, name string, min [4]float64, fit func(featmap.Matrix, []float64) (learners.Model, error)) {
	t.Helper()
	if testing.Short() {
		t.Skip("data sets: not in -short")
	}
	for k, set := range MulticlassSets {
		acc := MulticlassAccuracy(t, set.Name, 3, fit)
		t.Logf("%s%s: mean test accuracy %.4f", name, set.Name, acc)
		if acc < min[k] {
			t.Errorf("%s%s: accuracy %.4f, want ≥ %v", name, set.Name, acc, min[k])
		}
	}
}
