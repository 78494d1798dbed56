package learnertest_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/kernel"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/nogd"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rks"
	_ "github.com/rfkit/rfkit/learners/rrf"
	_ "github.com/rfkit/rfkit/learners/srff"
)

// smallData is 40 rows of 2 inputs with ±1 labels, and regression targets.
func smallData() (featmap.Matrix, []float64, []float64) {
	X := featmap.Dense(40, 2, make([]float64, 80))
	y, t := make([]float64, 40), make([]float64, 40)
	for i := range 40 {
		a, b := math.Sin(float64(i)), math.Cos(float64(3*i))
		X.Data[2*i], X.Data[2*i+1] = a, b
		y[i], t[i] = 1, a*b
		if a+b < 0 {
			y[i] = -1
		}
	}
	return X, y, t
}

// Every numeric parameter of every learner is range-checked before any
// work: an absurd value is an error that names the parameter (rfkit issue
// 14, M1), never a failure deep inside with internal wording.
func TestAbsurdParamsNamed(t *testing.T) {
	X, y, target := smallData()
	checked := 0
	for _, m := range learners.Methods() {
		if m.Name == "fake" {
			continue // the test learner of learners_test.go
		}
		for _, p := range learners.Params(m.NewConfig()) {
			var values []string
			switch p.Type {
			case "float64":
				values = []string{"1e308", "-1e308", "NaN", "+Inf", "-1"}
			case "int":
				values = []string{"4611686018427387904", "-1"}
			default:
				continue
			}
			for _, v := range values {
				cfg := m.NewConfig()
				if err := learners.SetParam(cfg, p.Name, v); err != nil {
					continue // refused at parse time: also named
				}
				if p.Name == "tol" && v == "-1" && m.Name == "mfga" {
					continue // negative: never stop early (documented)
				}
				_, err := m.Fit(context.Background(), X, y, cfg, nil)
				if err == nil && m.Name == "srff" { // srff is regression only
					_, err = m.Fit(context.Background(), X, target, cfg, nil)
				}
				checked++
				if err == nil || !strings.Contains(strings.ToLower(err.Error()), p.Name+" = ") {
					t.Errorf("%s %s=%s: %v, want an error naming %s", m.Name, p.Name, v, err, p.Name)
				}
			}
		}
	}
	t.Logf("%d absurd values checked", checked)
	if checked < 200 {
		t.Errorf("only %d absurd values checked: are the learners registered?", checked)
	}
}

// Rows of extreme or non-finite values never give a NaN class label from
// the checked paths (adversarial review, W2): PredictBatch and PredictChecked
// return either finite labels or an error wrapping ErrNotFinite that names
// the row; a ±Inf input (which mfga used to map to a confident −1) is
// always such an error.
func TestExtremeRowsNeverNaNLabels(t *testing.T) {
	X, y, target := smallData()
	rows := [][]float64{{1e308, -1e308}, {-1e308, 1e308}, {1e308, 1e308}, {1e300, 5e-324}, {math.Inf(1), 0}, {0, math.NaN()}}
	for _, m := range learners.Methods() {
		if m.Name == "fake" {
			continue
		}
		labels := y
		if m.Name == "srff" {
			labels = target
		}
		cfg := m.NewConfig()
		if m.Name == "srff" && testing.Short() {
			// λ given: no validation search, which takes minutes under
			// -race with the pure-Go kernels.
			if err := learners.SetParam(cfg, "lambda", "1e-3"); err != nil {
				t.Fatal(err)
			}
		}
		model, err := m.Fit(context.Background(), X, labels, cfg, nil)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		checked, ok := model.(interface {
			PredictChecked([]float64) (float64, error)
		})
		if !ok {
			t.Fatalf("%s: the model has no PredictChecked", m.Name)
		}
		for _, r := range rows {
			bad := !xmath.Finite(r[0]) || !xmath.Finite(r[1])
			v, err := checked.PredictChecked(r)
			if err != nil && !errors.Is(err, learners.ErrNotFinite) || err == nil && (bad || math.IsNaN(v)) {
				t.Errorf("%s: PredictChecked(%v) = %v, %v", m.Name, r, v, err)
			}
			batch := featmap.Dense(2, 2, append([]float64{0.5, -0.5}, r...))
			dst := make([]float64, 2)
			err = model.PredictBatch(dst, batch)
			switch {
			case err != nil && (!errors.Is(err, learners.ErrNotFinite) || !strings.Contains(err.Error(), "row 1")):
				t.Errorf("%s: PredictBatch(%v): %v, want ErrNotFinite naming row 1", m.Name, r, err)
			case err == nil && (bad || math.IsNaN(dst[1])):
				t.Errorf("%s: PredictBatch(%v) = %v, no error", m.Name, r, dst[1])
			}
		}
		if _, err := checked.PredictChecked([]float64{1}); !errors.Is(err, learners.ErrShape) {
			t.Errorf("%s: PredictChecked of a short row: %v, want ErrShape", m.Name, err)
		}
	}
}
