package learners_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestMissingPolicy: the NaN policy of every model (kit.Base), on
// rks models of the three tasks.
//   - Without imputation: Predict never returns a NaN label for a NaN
//     input (it uses the training mean, as if the input were at its
//     mean); the checked paths return a *RowError wrapping ErrNotFinite
//     that names the input.
//   - Fitted with Missing = impute on rows with NaN: the checked paths
//     accept NaN and agree with Predict; the file carries the flag.
func TestMissingPolicy(t *testing.T) {
	ctx := context.Background()
	X3, y3 := learnertest.Rings3(300, 1)
	Xb, yb := learnertest.Rings(300, 0, 0, 1, 1)
	for _, c := range []struct {
		task learners.Task
		X    featmap.Matrix
		y    []float64
	}{{learners.Multiclass, X3, y3}, {learners.Binary, Xb, yb}, {learners.Regression, Xb, yb}} {
		m, err := rks.Fit(ctx, c.X, c.y, rks.Config{Task: c.task, Features: 30, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		mean, _ := m.Standardization()
		x := slices.Clone(c.X.Row(5))
		at := slices.Clone(x)
		x[1], at[1] = math.NaN(), mean[1]
		if got, want := m.Predict(x), m.Predict(at); math.IsNaN(got) || got != want {
			t.Errorf("%v: Predict with a NaN input %v, at the mean %v", c.task, got, want)
		}
		var re *learners.RowError
		if _, err := m.PredictChecked(x); !errors.As(err, &re) || !errors.Is(err, learners.ErrNotFinite) || re.Input != 1 {
			t.Errorf("%v: PredictChecked: %v", c.task, err)
		}
		dst := make([]float64, 2)
		if err := m.PredictBatch(dst, featmap.Dense(2, len(x), append(slices.Clone(at), x...))); !errors.As(err, &re) || re.Row != 1 || dst[0] != m.Predict(at) {
			t.Errorf("%v: PredictBatch: %v", c.task, err)
		}
		if c.task != learners.Regression {
			p := make([]float64, len(m.Classes()))
			if err := m.Probabilities(p, x); !errors.Is(err, learners.ErrNotFinite) {
				t.Errorf("%v: Probabilities: %v", c.task, err)
			}
		}
		if m.Imputes() {
			t.Errorf("%v: imputes without Missing", c.task)
		}
		// Training on NaN: an error that names the option.
		Xn := featmap.Dense(c.X.Rows, c.X.Cols, slices.Clone(c.X.Data))
		for i := 0; i < Xn.Rows; i += 7 {
			Xn.Data[i*Xn.Stride+i%Xn.Cols] = math.NaN()
		}
		if _, err := rks.Fit(ctx, Xn, c.y, rks.Config{Task: c.task, Features: 30}); err == nil || !strings.Contains(err.Error(), "Missing = impute") {
			t.Errorf("%v: NaN training data: %v", c.task, err)
		}
		mi, err := rks.Fit(ctx, Xn, c.y, rks.Config{Task: c.task, Features: 30, Seed: 1, Missing: learners.MissingImpute})
		if err != nil {
			t.Fatal(err)
		}
		if !mi.Imputes() {
			t.Errorf("%v: Imputes false", c.task)
		}
		v, err := mi.PredictChecked(x)
		if err != nil || v != mi.Predict(x) || math.IsNaN(v) {
			t.Errorf("%v: imputing PredictChecked %v, %v", c.task, v, err)
		}
		inf := slices.Clone(x)
		inf[0] = math.Inf(-1)
		if _, err := mi.PredictChecked(inf); !errors.Is(err, learners.ErrNotFinite) {
			t.Errorf("%v: -Inf accepted: %v", c.task, err)
		}
		data := learnertest.Bytes(t, mi)
		h, _ := modelfile.ReadHeader(data)
		back, err := rks.Load(data)
		if err != nil || !h.Impute || !back.Imputes() || back.Predict(x) != mi.Predict(x) {
			t.Errorf("%v: round trip of an imputing model: %v, header %v", c.task, err, h.Impute)
		}
		// The imputing model is still a good classifier: 1 row in 7 lost
		// one input.
		if acc := learnertest.Accuracy(mi, c.X, c.y); c.task != learners.Regression && acc < 0.85 {
			t.Errorf("%v: imputing model's training accuracy %v, want ≥ 0.85", c.task, acc)
		}
	}
}

// TestBinaryProbabilities: a binary model's Probabilities are 1 − p and p,
// p = Probability; a regression model has none (ErrShape).
func TestBinaryProbabilities(t *testing.T) {
	X, y := learnertest.Rings(200, 0, 0, 1, 2)
	for _, loss := range []rks.Loss{rks.Logistic, rks.Ridge} {
		m, err := rks.Fit(context.Background(), X, y, rks.Config{Features: 20, Loss: loss})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Classes(), []float64{m.Labels().Neg, m.Labels().Pos}) {
			t.Fatalf("classes %v", m.Classes())
		}
		p := make([]float64, 2)
		for i := 0; i < 20; i++ {
			if err := m.Probabilities(p, X.Row(i)); err != nil || p[1] != m.Probability(X.Row(i)) || math.Abs(p[0]+p[1]-1) > 1e-15 {
				t.Fatalf("%s row %d: %v %v", loss, i, p, err)
			}
		}
	}
	m, err := rks.Fit(context.Background(), X, y, rks.Config{Features: 20, Task: learners.Regression})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Probabilities(nil, X.Row(0)); !errors.Is(err, learners.ErrShape) || !strings.Contains(err.Error(), "a regression model has no classes") || m.Classes() != nil {
		t.Errorf("regression: %v", err)
	}
}
