package kit

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

func TestClassLabels(t *testing.T) {
	idx, cl, err := ClassLabels([]float64{3, -1, 0, 3, math.Copysign(0, -1), 7})
	if err != nil || !slices.Equal(cl, []float64{-1, 0, 3, 7}) || !slices.Equal(idx, []float64{2, 0, 1, 2, 1, 3}) {
		t.Fatalf("ClassLabels: %v %v %v", idx, cl, err)
	}
	many := make([]float64, modelfile.MaxClasses+1)
	for i := range many {
		many[i] = float64(i) / 3
	}
	for _, c := range []struct {
		y    []float64
		want string
	}{
		{nil, "no labels"},
		{[]float64{1, math.NaN(), 2}, "y[1] is NaN"},
		{[]float64{1, 2, math.Inf(1)}, "y[2] is +Inf"},
		{[]float64{4, 4}, "only one class (every label is 4)"},
		{[]float64{1, 2, 1}, "two classes (1 and 2); the multiclass task needs three or more"},
		{many, "more than 4096 classes (the 4097th distinct label, 1365.3333333333333, is y[4096])"},
	} {
		if _, _, err := ClassLabels(c.y); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.y, err, c.want)
		}
	}
	if _, _, err := ClassLabels(many[:modelfile.MaxClasses]); err != nil {
		t.Errorf("MaxClasses classes: %v", err)
	}
	for _, c := range [][]float64{{1, 2}, {1, 3, 2}, {1, 2, 2}, {1, 2, math.Inf(1)}} {
		if NewClasses(c) == nil {
			t.Errorf("NewClasses(%v) accepted", c)
		}
	}
}

func TestTaskChecks(t *testing.T) {
	v := NewCheck("x")
	v.Task(learners.Multiclass)
	if v.Err() == nil || !strings.Contains(v.Err().Error(), "x: Task = multiclass: this learner does binary classification and regression only") {
		t.Errorf("Task: %v", v.Err())
	}
	v = NewCheck("x")
	v.TaskIn(learners.Regression, learners.Binary, learners.Multiclass)
	if v.Err() == nil || v.Err().Error() != "x: Task = regression, want binary, multiclass" {
		t.Errorf("TaskIn: %v", v.Err())
	}
	v = NewCheck("x")
	v.TaskIn(learners.Multiclass, learners.Binary, learners.Multiclass)
	v.Missing(learners.MissingImpute)
	if v.Err() != nil {
		t.Error(v.Err())
	}
	var m learners.Missing
	if err := m.UnmarshalText([]byte("impute")); err != nil || m != learners.MissingImpute || m.String() != "impute" {
		t.Errorf("%v %v", m, err)
	}
	if err := m.UnmarshalText([]byte("drop")); err == nil || !strings.Contains(err.Error(), `unknown missing-value policy "drop"`) {
		t.Error(err)
	}
	if _, err := learners.Missing(5).MarshalText(); err == nil {
		t.Error("Missing(5) marshalled")
	}
}

type imputeConfig struct{ Missing learners.Missing }

func (imputeConfig) Validate() error { return nil }

type plainConfig struct{}

func (plainConfig) Validate() error { return nil }

// TestPrepareWeighted: a weight of 2 gives the statistics of the row
// duplicated (to 1e-15), 0 drops a row, bad weights are errors; with no
// weights the bits of Prepare; imputation ignores the missing values.
func TestPrepareWeighted(t *testing.T) {
	X := featmap.Dense(5, 2, []float64{1, 10, 2, 20, 4, 5, 8, -3, 16, 0})
	y := []float64{1, 2, 3, 1, 3}
	ctx := context.Background()
	p, err := PrepareWeighted(ctx, "t", plainConfig{}, learners.Multiclass, X, y, []float64{2, 1, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	dup := featmap.Dense(5, 2, []float64{1, 10, 1, 10, 2, 20, 8, -3, 16, 0})
	q, err := Prepare(ctx, "t", plainConfig{}, learners.Multiclass, dup, []float64{1, 1, 2, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	for j := range p.Mean {
		if math.Abs(p.Mean[j]-q.Mean[j]) > 1e-15*math.Abs(q.Mean[j]) || math.Abs(p.Scale[j]-q.Scale[j]) > 1e-14*q.Scale[j] {
			t.Errorf("column %d: weighted %v/%v, duplicated %v/%v", j, p.Mean[j], p.Scale[j], q.Mean[j], q.Scale[j])
		}
	}
	if p.N != 4 || !slices.Equal(p.Kept, []int{0, 1, 3, 4}) || !slices.Equal(p.Weights, []float64{2, 1, 1, 1}) ||
		!slices.Equal(p.Classes, []float64{1, 2, 3}) || !slices.Equal(p.Targets, []float64{0, 1, 0, 2}) {
		t.Errorf("prepared %+v", p)
	}
	for _, c := range []struct {
		w    []float64
		want string
	}{
		{[]float64{1, 1, -1, 1, 1}, "w[2] is -1: a weight must be finite and ≥ 0"},
		{[]float64{1, math.NaN(), 1, 1, 1}, "w[1] is NaN"},
		{[]float64{1, 1, 1, math.Inf(1), 1}, "w[3] is +Inf"},
		{[]float64{0, 0, 0, 0, 0}, "every weight is 0"},
		{[]float64{1, 1}, "2 weights for 5 rows"},
		{[]float64{1e308, 1e308, 1, 1, 1}, "their sum overflows"},
	} {
		if _, err := PrepareWeighted(ctx, "t", plainConfig{}, learners.Binary, X, []float64{0, 1, 0, 1, 0}, c.w); err == nil || !strings.HasPrefix(err.Error(), "t: weights: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.w, err, c.want)
		}
	}
	// Dropping the only row of a class leaves two: an error for Multiclass.
	if _, err := PrepareWeighted(ctx, "t", plainConfig{}, learners.Multiclass, X, y, []float64{1, 1, 0, 1, 0}); err == nil || !strings.Contains(err.Error(), "two classes") {
		t.Errorf("class dropped: %v", err)
	}
	// Unweighted: the bits of Standardize.
	a, _ := Prepare(ctx, "t", plainConfig{}, learners.Regression, X, y)
	m, s, z, _ := learners.Standardize(X)
	if !slices.Equal(a.Mean, m) || !slices.Equal(a.Scale, s) || !slices.Equal(a.Z, z) || a.Weights != nil || a.Impute {
		t.Error("unweighted Prepare differs from learners.Standardize")
	}
	// Missing values: an error unless the Config imputes.
	nan := featmap.Dense(5, 2, []float64{1, 10, math.NaN(), 20, 4, 5, 8, math.NaN(), 16, 0})
	if _, err := Prepare(ctx, "t", plainConfig{}, learners.Regression, nan, y); err == nil || !strings.Contains(err.Error(), "X[1, 0] is NaN: inputs must be finite (or fit with Missing = impute") {
		t.Errorf("NaN without impute: %v", err)
	}
	b, err := Prepare(ctx, "t", imputeConfig{learners.MissingImpute}, learners.Regression, nan, y)
	if err != nil {
		t.Fatal(err)
	}
	present := featmap.Dense(4, 1, []float64{1, 4, 8, 16})
	pm, ps, _, _ := learners.Standardize(present)
	if !b.Impute || math.Abs(b.Mean[0]-pm[0]) > 1e-15*pm[0] || math.Abs(b.Scale[0]-ps[0]) > 1e-14*ps[0] || b.Z[2] != 0 || b.Z[7] != 0 || math.IsNaN(b.Z[0]) {
		t.Errorf("imputed: mean %v scale %v (want %v %v), z %v", b.Mean, b.Scale, pm, ps, b.Z)
	}
	if _, err := Prepare(ctx, "t", imputeConfig{learners.MissingImpute}, learners.Regression, featmap.Dense(2, 1, []float64{math.NaN(), math.NaN()}), []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "column 0: every value is missing") {
		t.Errorf("all missing: %v", err)
	}
	inf := featmap.Dense(2, 1, []float64{math.Inf(1), 1})
	if _, err := Prepare(ctx, "t", imputeConfig{learners.MissingImpute}, learners.Regression, inf, []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "+Inf") {
		t.Errorf("Inf with impute: %v", err)
	}
}
