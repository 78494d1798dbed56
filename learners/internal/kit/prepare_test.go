package kit

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

func TestCheckShapeAndDataData(t *testing.T) {
	X := featmap.Dense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	y := []float64{0, 1, 0}
	if err := CheckData(X, y); err != nil {
		t.Fatal(err)
	}
	if err := CheckShape(featmap.Matrix{Rows: 2, Cols: 2, Stride: 3, Data: make([]float64, 5)}, 2); err != nil {
		t.Errorf("strided view: %v", err)
	}
	for _, c := range []struct {
		X    featmap.Matrix
		y    []float64
		want string
	}{
		{featmap.Matrix{}, nil, "X is 0×0: empty data"},
		{featmap.Matrix{Rows: -1, Cols: 2}, nil, "empty data"},
		{featmap.Matrix{Rows: 2, Cols: 2, Stride: 1, Data: make([]float64, 4)}, y[:2], "stride 1 is below its 2 columns"},
		{featmap.Matrix{Rows: 3, Cols: 2, Stride: math.MaxInt, Data: X.Data}, y, "too large"},
		{featmap.Matrix{Rows: 3, Cols: 2, Stride: 2, Data: X.Data[:5]}, y, "needs 6 elements, has 5"},
		{X, y[:2], "X has 3 rows but y has 2 values"},
		{featmap.Dense(3, 2, []float64{1, 2, 3, math.NaN(), 5, 6}), y, "X[1, 1] is NaN: inputs must be finite"},
		{X, []float64{0, math.Inf(-1), 0}, "y[1] is -Inf: targets must be finite"},
	} {
		if err := CheckData(c.X, c.y); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckData(%+v): %v, want %q", c.X, err, c.want)
		}
	}
	if err := CheckShape(X, 3); err == nil || !strings.Contains(err.Error(), "X has 2 columns, the model takes 3 inputs") {
		t.Errorf("Shape cols: %v", err)
	}
}

func TestStandardize(t *testing.T) {
	// A strided view with a constant column.
	data := []float64{1, 5, 10, -99, 2, 5, 20, -99, 4, 5, 60, -99}
	X := featmap.Matrix{Rows: 3, Cols: 3, Stride: 4, Data: data}
	mean, scale, xs, err := learners.Standardize(X)
	if err != nil {
		t.Fatal(err)
	}
	// Population statistics by hand: columns (1, 2, 4), (5, 5, 5), (10, 20, 60).
	refMean := []float64{7.0 / 3, 5, 30}
	refScale := []float64{math.Sqrt(14.0 / 9), 1, math.Sqrt(1400.0 / 3)}
	for j := range refMean {
		if math.Abs(mean[j]-refMean[j]) > 1e-14*math.Abs(refMean[j]) || math.Abs(scale[j]-refScale[j]) > 1e-14*refScale[j] {
			t.Errorf("column %d: mean %v scale %v, want %v %v", j, mean[j], scale[j], refMean[j], refScale[j])
		}
	}
	if scale[1] != 1 || xs[1] != 0 {
		t.Errorf("constant column: scale %v, value %v", scale[1], xs[1])
	}
	for j := 0; j < 3; j++ {
		var m, v float64
		for i := 0; i < 3; i++ {
			m += xs[i*3+j] / 3
		}
		for i := 0; i < 3; i++ {
			v += (xs[i*3+j] - m) * (xs[i*3+j] - m) / 3
		}
		if math.Abs(m) > 1e-15 || (j != 1 && math.Abs(v-1) > 1e-14) {
			t.Errorf("column %d: mean %v variance %v", j, m, v)
		}
	}
	if _, _, _, err := learners.Standardize(featmap.Dense(2, 1, []float64{-1e308, 1e308})); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("overflow: %v", err)
	}
}

func TestRows(t *testing.T) {
	X := featmap.Matrix{Rows: 3, Cols: 2, Stride: 3, Data: []float64{1, 2, 0, 3, 4, 0, 5, 6}}
	got := learners.Rows(X, []int{2, 0, 2})
	want := []float64{5, 6, 1, 2, 5, 6}
	if got.Rows != 3 || got.Cols != 2 || got.Stride != 2 || len(got.Data) != 6 {
		t.Fatalf("shape %+v", got)
	}
	for i, v := range want {
		if got.Data[i] != v {
			t.Fatalf("got %v, want %v", got.Data, want)
		}
	}
}

// TestWeightOverflowMessage: weights are relative (scaled to mean 1 before
// they multiply anything), so a weight of 1e308 beside weights of 1 fits;
// weights whose sum overflows are reported as the weights' fault, not as a
// feature's.
func TestWeightOverflowMessage(t *testing.T) {
	X := featmap.Dense(3, 1, []float64{2, 3, 4})
	if _, err := PrepareWeighted(context.Background(), "x", nopConfig{}, learners.Regression, X, []float64{1, 2, 3}, []float64{1e308, 1, 1}); err != nil {
		t.Errorf("weights 1e308, 1, 1: %v", err)
	}
	_, err := PrepareWeighted(context.Background(), "x", nopConfig{}, learners.Regression, X, []float64{1, 2, 3}, []float64{1.7e308, 1.7e308, 1})
	if err == nil || !strings.Contains(err.Error(), "weights") || strings.Contains(err.Error(), "column") {
		t.Errorf("err = %v, want the weights blamed", err)
	}
}

type nopConfig struct{}

func (nopConfig) Validate() error { return nil }

// TestAllFinite: finite values of every kind pass at every length, and one
// NaN or ±Inf at any place of a slice of up to 10 values is found.
func TestAllFinite(t *testing.T) {
	for n := 0; n < 11; n++ {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i) - 3.5
		}
		if n > 0 {
			v[0] = math.Copysign(0, -1)
			v[n-1] = math.MaxFloat64
		}
		if !allFinite(v) {
			t.Fatalf("n=%d: finite values reported non-finite", n)
		}
		for i := 0; i < n; i++ {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				w := append([]float64(nil), v...)
				w[i] = bad
				if allFinite(w) {
					t.Errorf("n=%d: %v at %d not found", n, bad, i)
				}
			}
		}
	}
}
