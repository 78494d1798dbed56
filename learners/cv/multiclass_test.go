package cv_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/internal/vec"
	"github.com/rfkit/rfkit/learners/rks"
	"github.com/rfkit/rfkit/metrics"
)

// centroid is a test learner that implements learners.ClassModel: the
// nearest class mean over the first Dims inputs (0: all), probabilities a
// softmax of minus the squared distances. No learner of this build does
// multiclass through the Multiclass task yet; this one exercises cv's
// multiclass paths.
type centroidConfig struct {
	Dims int `help:"inputs used (0: all)"`
}

type centroidModel struct {
	d, dims int
	classes []float64
	means   [][]float64 // per class, len dims
}

func fitCentroid(_ context.Context, X featmap.Matrix, y []float64, cfg centroidConfig) (*centroidModel, error) {
	if err := kit.CheckData(X, y); err != nil {
		return nil, err
	}
	m := &centroidModel{d: X.Cols, dims: X.Cols}
	if cfg.Dims > 0 && cfg.Dims < X.Cols {
		m.dims = cfg.Dims
	}
	m.classes = slices.Clone(y)
	slices.Sort(m.classes)
	m.classes = slices.Compact(m.classes)
	if len(m.classes) < 2 {
		return nil, errors.New("centroid: one class")
	}
	count := make([]float64, len(m.classes))
	m.means = make([][]float64, len(m.classes))
	for k := range m.means {
		m.means[k] = make([]float64, m.dims)
	}
	for i, v := range y {
		k, _ := slices.BinarySearch(m.classes, v)
		count[k]++
		for j := range m.dims {
			m.means[k][j] += X.Row(i)[j]
		}
	}
	for k := range m.means {
		for j := range m.dims {
			m.means[k][j] /= count[k]
		}
	}
	return m, nil
}

func (m *centroidModel) NumInputs() int { return m.d }
func (m *centroidModel) Task() learners.Task {
	if len(m.classes) > 2 {
		return learners.Multiclass
	}
	return learners.Binary
}
func (m *centroidModel) Classes() []float64 { return m.classes }
func (m *centroidModel) Probabilities(dst, x []float64) error {
	if len(dst) != len(m.classes) || len(x) != m.d {
		return learners.ErrShape
	}
	for k, c := range m.means {
		var s float64
		for j, v := range c {
			s += (x[j] - v) * (x[j] - v)
		}
		dst[k] = s
	}
	vec.Softmin(dst, dst, 1)
	return nil
}
func (m *centroidModel) Predict(x []float64) float64 {
	p := make([]float64, len(m.classes))
	if m.Probabilities(p, x) != nil {
		panic("centroid: shape")
	}
	k := 0
	for j, v := range p {
		if v > p[k] {
			k = j
		}
	}
	return m.classes[k]
}
func (m *centroidModel) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := kit.CheckShape(X, m.d); err != nil || len(dst) != X.Rows {
		return fmt.Errorf("centroid: %w", learners.ErrShape)
	}
	for i := range dst {
		dst[i] = m.Predict(X.Row(i))
	}
	return nil
}
func (m *centroidModel) MarshalBinary() ([]byte, error) { return nil, errors.New("not stored") }

var _ learners.ClassModel = (*centroidModel)(nil)

func init() {
	kit.Define("centroid-cvtest", "nearest class mean (a cv test learner)", []learners.Task{learners.Multiclass}, func() *centroidConfig { return &centroidConfig{} },
		fitCentroid, func([]byte) (*centroidModel, error) { return nil, errors.New("not stored") })
}

// blobs: three classes 1, 2, 3 centred at x1 = −2, 0, 2 (x0 is noise).
func blobs(n int, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 2))
	X, y := make([]float64, 2*n), make([]float64, n)
	for i := range y {
		c := i % 3
		y[i] = float64(c + 1)
		X[2*i] = r.NormFloat64()
		X[2*i+1] = 2*float64(c-1) + 0.5*r.NormFloat64()
	}
	return featmap.Dense(n, 2, X), y
}

func centroidGrid(t *testing.T, dims ...string) []cv.Candidate {
	t.Helper()
	m := learnertest.Lookup(t, "centroid-cvtest")
	vs, err := cv.Expand(&centroidConfig{}, map[string][]string{"dims": dims})
	if err != nil {
		t.Fatal(err)
	}
	return cv.Candidates(m, vs)
}

func TestSearchMulticlass(t *testing.T) {
	X, y := blobs(300, 1)
	// dims=1 sees only the noise input (chance, 1/3); dims=0 all of them.
	grid := centroidGrid(t, "1", "0")
	res, err := cv.Search(context.Background(), X, y, grid, cv.Options{Task: learners.Multiclass, Folds: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Best != 1 || res.Mean[1] < 0.9 || res.Mean[0] > 0.5 || res.Metric != cv.MetricAccuracy {
		t.Fatalf("result %+v", res)
	}
	// Log loss ranks them the same way; the scores are negated losses.
	res, err = cv.Search(context.Background(), X, y, grid, cv.Options{Task: learners.Multiclass, Folds: 5, Seed: 3, Metric: cv.MetricLogLoss})
	if err != nil {
		t.Fatal(err)
	}
	if res.Best != 1 || !(res.Mean[1] < 0 && res.Mean[1] > -0.4) || !(res.Mean[0] < -1) {
		t.Fatalf("log loss result %+v", res)
	}
	if _, err := cv.Search(context.Background(), X, y, grid, cv.Options{Task: learners.Multiclass, Folds: 5, Metric: cv.MetricAUC}); err == nil || !strings.Contains(err.Error(), `metric "auc" does not apply`) {
		t.Errorf("AUC of a multiclass search: %v", err)
	}
}

func TestFoldsStratified(t *testing.T) {
	_, y := blobs(100, 2) // 34, 33, 33 rows of classes 1, 2, 3
	parts, err := cv.Folds(y, nil, learners.Multiclass, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	for f, p := range parts {
		for c := 1.0; c <= 3; c++ {
			n := 0
			for _, i := range p {
				if y[i] == c {
					n++
				}
			}
			if n < 8 || n > 9 {
				t.Errorf("fold %d has %d rows of class %v, want 8 or 9", f, n, c)
			}
		}
	}
	// Weighted: every fold gets about a quarter of each class's weight.
	r := rand.New(rand.NewPCG(9, 9))
	w := make([]float64, len(y))
	for i := range w {
		w[i] = float64(r.IntN(6)) // 0..5
	}
	parts, err = cv.Folds(y, w, learners.Multiclass, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, len(y))
	for f, p := range parts {
		for c := 1.0; c <= 3; c++ {
			var got, all float64
			for i, v := range y {
				if v == c {
					all += w[i]
				}
			}
			for _, i := range p {
				if y[i] == c {
					got += w[i]
				}
			}
			if math.Abs(got-all/4) > 5 {
				t.Errorf("fold %d has weight %v of class %v, want %v ± 5", f, got, c, all/4)
			}
		}
		for _, i := range p {
			if seen[i] {
				t.Fatalf("row %d in two folds", i)
			}
			seen[i] = true
		}
	}
	if slices.Contains(seen, false) {
		t.Error("a row is in no fold")
	}
	// A class with fewer rows of positive weight than folds.
	w2 := slices.Clone(w)
	for i, v := range y {
		if v == 2 && i > 7 { // rows 1, 4, 7 keep theirs: fewer than 4
			w2[i] = 0
		}
	}
	if _, err := cv.Folds(y, w2, learners.Multiclass, 4, 5); err == nil || !strings.Contains(err.Error(), "class 2 has") {
		t.Errorf("rare weighted class: %v", err)
	}
	if _, err := cv.Folds(make([]float64, 10), nil, learners.Multiclass, 2, 5); err == nil || !strings.Contains(err.Error(), "only one class") {
		t.Errorf("one class: %v", err)
	}
}

// TestFitWeighted checks the fallback for a learner without a weighted
// fit (fogd, online): integer weights repeat rows, other weights are
// refused.
func TestFitWeighted(t *testing.T) {
	X, y := rings(60, 5)
	meth := learnertest.Lookup(t, "fogd")
	if meth.FitWeighted != nil {
		t.Fatal("fogd has a weighted fit: pick a learner without one for this test")
	}
	cfg := &fogd.Config{Features: 10, Seed: 2}
	ctx := context.Background()
	w := make([]float64, X.Rows)
	var idx []int
	for i := range w {
		w[i] = float64(i % 3) // 0, 1, 2: row dropped, kept, doubled
		for range i % 3 {
			idx = append(idx, i)
		}
	}
	got, err := cv.FitWeighted(ctx, meth, X, y, w, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	yy := make([]float64, len(idx))
	for r, i := range idx {
		yy[r] = y[i]
	}
	want, err := meth.Fit(ctx, learners.Rows(X, idx), yy, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !learnertest.SameModel(t, got, want) {
		t.Error("weight 2 on a row is not the row twice")
	}
	w[1] = 0.5
	if _, err := cv.FitWeighted(ctx, meth, X, y, w, cfg, nil); !errors.Is(err, cv.ErrNoWeights) || !strings.Contains(err.Error(), "fogd: weight 0.5 of row 1") {
		t.Errorf("fractional weight: %v", err)
	}
	w[1] = -1
	if _, err := cv.FitWeighted(ctx, meth, X, y, w, cfg, nil); err == nil || !strings.Contains(err.Error(), "w[1] is -1") {
		t.Errorf("negative weight: %v", err)
	}
	w[1] = 1000
	if _, err := cv.FitWeighted(ctx, meth, X, y, w, cfg, nil); !errors.Is(err, cv.ErrNoWeights) || !strings.Contains(err.Error(), "16 times the rows") {
		t.Errorf("huge weight: %v", err)
	}
}

// TestFitWeightedCallsLearner checks that a learner with a weighted fit
// (rks) gets the weights themselves: a fractional weight is accepted and
// the model is Method.FitWeighted's.
func TestFitWeightedCallsLearner(t *testing.T) {
	X, y := rings(60, 5)
	meth := learnertest.Lookup(t, "rks")
	cfg := &rks.Config{Features: 30, Gamma: 1, Seed: 2}
	w := make([]float64, X.Rows)
	for i := range w {
		w[i] = 0.5 + float64(i%3)
	}
	ctx := context.Background()
	got, err := cv.FitWeighted(ctx, meth, X, y, w, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := meth.FitWeighted(ctx, X, y, w, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !learnertest.SameModel(t, got, want) {
		t.Error("cv.FitWeighted did not fit through rks's FitWeighted")
	}
}

func TestSearchWeighted(t *testing.T) {
	X, y := blobs(150, 4)
	w := make([]float64, len(y))
	for i := range w {
		w[i] = float64(1 + i%2)
	}
	// A candidate that records the weights it is given.
	var sums []float64
	grid := centroidGrid(t, "0")
	fit := grid[0].FitWeighted
	grid[0].FitWeighted = func(ctx context.Context, X featmap.Matrix, y, w []float64) (learners.Model, error) {
		var s float64
		for _, v := range w {
			s += v
		}
		sums = append(sums, s)
		return fit(ctx, X, y, w)
	}
	res, err := cv.Search(context.Background(), X, y, grid, cv.Options{Task: learners.Multiclass, Folds: 3, Seed: 1, Weights: w})
	if err != nil {
		t.Fatal(err)
	}
	// Each training part holds two folds, about two thirds of the weight 225.
	if len(sums) != 3 || sums[0]+sums[1]+sums[2] != 2*225 {
		t.Errorf("training weights %v", sums)
	}
	if res.Mean[0] < 0.9 {
		t.Errorf("weighted accuracy %v", res.Mean)
	}
	// The fold scores are weighted: a model right on the rows of weight 2
	// only scores about 2/3 (unweighted it would score 1/2).
	oddRight := cv.Candidate{Name: "odd", Fit: func(context.Context, featmap.Matrix, []float64) (learners.Model, error) {
		return nil, errors.New("unused")
	}, FitWeighted: func(context.Context, featmap.Matrix, []float64, []float64) (learners.Model, error) {
		return oddRows{}, nil
	}}
	res, err = cv.Search(context.Background(), X, y, []cv.Candidate{oddRight}, cv.Options{Task: learners.Multiclass, Folds: 3, Seed: 1, Weights: w})
	if err != nil {
		t.Fatal(err)
	}
	for f, s := range res.Scores[0] {
		if s < 0.6 || s > 0.72 {
			t.Errorf("fold %d: weighted accuracy %v, want about 2/3", f, s)
		}
	}
	// Without FitWeighted, weights other than 0 and 1 are refused.
	grid[0].FitWeighted = nil
	if _, err := cv.Search(context.Background(), X, y, grid, cv.Options{Task: learners.Multiclass, Folds: 3, Weights: w}); !errors.Is(err, cv.ErrNoWeights) {
		t.Errorf("no FitWeighted: %v", err)
	}
}

// oddRows predicts the right class for the rows of weight 2 in
// TestSearchWeighted (the odd rows of its data set, recognised by their
// input x0) and class 0, always wrong, for the others.
type oddRows struct{}

func (oddRows) NumInputs() int              { return 2 }
func (oddRows) Task() learners.Task         { return learners.Multiclass }
func (oddRows) Classes() []float64          { return []float64{0, 1, 2, 3} }
func (oddRows) Predict(x []float64) float64 { return weightedRows[x[0]] }
func (m oddRows) PredictBatch(dst []float64, X featmap.Matrix) error {
	for i := range dst {
		dst[i] = m.Predict(X.Row(i))
	}
	return nil
}
func (oddRows) MarshalBinary() ([]byte, error) { return nil, errors.New("not stored") }

// weightedRows maps x0 of the odd rows of TestSearchWeighted's data to
// their label.
var weightedRows = func() map[float64]float64 {
	X, y := blobs(150, 4)
	out := map[float64]float64{}
	for i := 1; i < len(y); i += 2 {
		out[X.Row(i)[0]] = y[i]
	}
	return out
}()

// evaluate is cv.EvaluateContext's report on m and m's predictions on X, failing
// t on an error.
func evaluate(t *testing.T, m learners.Model, X featmap.Matrix, y, w []float64) (*cv.Report, []float64) {
	t.Helper()
	r, err := cv.EvaluateContext(context.Background(), m, X, y, w)
	if err != nil {
		t.Fatal(err)
	}
	pred := make([]float64, len(y))
	if err := m.PredictBatch(pred, X); err != nil {
		t.Fatal(err)
	}
	return r, pred
}

func TestEvaluate(t *testing.T) {
	ctx := context.Background()
	// Multiclass: every metric of a ClassModel.
	X, y := blobs(90, 6)
	m, err := fitCentroid(ctx, X, y, centroidConfig{})
	if err != nil {
		t.Fatal(err)
	}
	r, pred := evaluate(t, m, X, y, nil)
	acc, _ := metrics.Accuracy(y, pred, nil)
	f1, _ := metrics.MacroF1(y, pred, []float64{1, 2, 3}, nil)
	if r.Task != learners.Multiclass || r.N != 90 || r.Accuracy != acc || r.MacroF1 != f1 || !(acc > 0.9) ||
		!(r.LogLoss > 0 && r.LogLoss < 0.5) || !math.IsNaN(r.AUC) || !math.IsNaN(r.RMSE) || len(r.Confusion) != 3 {
		t.Errorf("multiclass report %+v", r)
	}
	var total float64
	for _, row := range r.Confusion {
		for _, v := range row {
			total += v
		}
	}
	if total != 90 {
		t.Errorf("confusion matrix %v sums to %v", r.Confusion, total)
	}
	bad := slices.Clone(y)
	bad[7] = 4
	if _, err := cv.EvaluateContext(context.Background(), m, X, bad, nil); err == nil || !strings.Contains(err.Error(), "row 7: label 4 is not a class of the model (its classes: [1 2 3])") {
		t.Errorf("unknown label: %v", err)
	}

	// Binary rks: AUC from the scores, log loss from the probabilities.
	Xb, yb := rings(200, 7)
	meth, _ := learners.Lookup("rks")
	mb, err := meth.Fit(ctx, Xb, yb, &rks.Config{Features: 50, Gamma: 1, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := cv.EvaluateContext(context.Background(), mb, Xb, yb, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rb.Task != learners.Binary || !(rb.AUC > 0.95 && rb.AUC <= 1) || !(rb.LogLoss > 0) || len(rb.Confusion) != 2 || !(rb.Accuracy > 0.9) || !reflect.DeepEqual(rb.Classes, []float64{0, 1}) {
		t.Errorf("binary report %+v", rb)
	}
	// One class in the data: AUC does not apply (NaN), the rest does.
	var one []int
	for i, v := range yb {
		if v == 1 {
			one = append(one, i)
		}
	}
	yo := make([]float64, len(one))
	for i := range yo {
		yo[i] = 1
	}
	if ro, err := cv.EvaluateContext(context.Background(), mb, learners.Rows(Xb, one), yo, nil); err != nil || !math.IsNaN(ro.AUC) || !(ro.Accuracy > 0.85) {
		t.Errorf("one class: %+v, %v", ro, err)
	}

	// Regression: RMSE, MAE, R², weighted.
	w := make([]float64, len(yb))
	for i := range w {
		w[i] = float64(i % 4)
	}
	mr, err := meth.Fit(ctx, Xb, yb, &rks.Config{Features: 50, Gamma: 1, Seed: 1, Task: learners.Regression}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rr, pr := evaluate(t, mr, Xb, yb, w)
	rmse, _ := metrics.RMSE(yb, pr, w)
	r2, _ := metrics.R2(yb, pr, w)
	if rr.RMSE != rmse || rr.R2 != r2 || rr.Weight != 300 || !math.IsNaN(rr.Accuracy) || rr.Confusion != nil {
		t.Errorf("regression report %+v", rr)
	}
	if _, err := cv.EvaluateContext(context.Background(), mr, Xb, yb, w[:3]); err == nil || !strings.Contains(err.Error(), "3 weights for 200 rows") {
		t.Errorf("short weights: %v", err)
	}
}

func TestSearchMetrics(t *testing.T) {
	ctx := context.Background()
	X, y := rings(200, 8)
	grid := rksGrid(t, map[string][]string{"gamma": {"1e-4", "1"}})
	res, err := cv.Search(ctx, X, y, grid, cv.Options{Task: learners.Binary, Folds: 4, Seed: 1, Metric: cv.MetricAUC})
	if err != nil {
		t.Fatal(err)
	}
	if res.Best != 1 || !(res.Mean[1] > 0.95 && res.Mean[1] <= 1) || !(res.Mean[0] < 0.75) || res.Metric != cv.MetricAUC {
		t.Errorf("AUC search %+v", res)
	}
	// Regression by R² (higher is better) and MAE (lower; scores negated).
	Xr, yr := sine(120)
	reg := append([]cv.Candidate{constant("zero", 0, learners.Regression)},
		rksGrid(t, map[string][]string{"task": {"regression"}, "lambda": {"1e-4"}})...)
	for _, m := range []cv.Metric{cv.MetricR2, cv.MetricMAE} {
		res, err := cv.Search(ctx, Xr, yr, reg, cv.Options{Task: learners.Regression, Folds: 3, Seed: 1, Metric: m})
		if err != nil {
			t.Fatal(err)
		}
		ok := res.Best == 1
		if m == cv.MetricR2 {
			ok = ok && res.Mean[1] > 0.8 && res.Mean[0] <= 0
		} else {
			ok = ok && res.Mean[1] < 0 && res.Mean[1] > -0.3 && res.Mean[0] < -0.4
		}
		if !ok {
			t.Errorf("%s search %+v", m, res)
		}
	}
	if _, err := cv.Search(ctx, Xr, yr, reg, cv.Options{Task: learners.Regression, Folds: 3, Metric: cv.MetricAccuracy}); err == nil || !strings.Contains(err.Error(), `metric "accuracy" does not apply to the regression task`) {
		t.Errorf("accuracy of a regression: %v", err)
	}
}
