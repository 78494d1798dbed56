package metrics

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func near(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
		t.Errorf("%s = %.17g, want %.17g", name, got, want)
	}
}

// val returns a function that returns v and fails the test on an error.
func val(t *testing.T) func(v float64, err error) float64 {
	return func(v float64, err error) float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// repeat returns the rows of s repeated w[i] times (integer weights).
func repeat(s, w []float64) []float64 {
	var out []float64
	for i, v := range s {
		for range int(w[i]) {
			out = append(out, v)
		}
	}
	return out
}

func TestAccuracy(t *testing.T) {
	y := []float64{1, 2, 3, 3}
	p := []float64{1, 3, 3, 3}
	near(t, "accuracy", val(t)(Accuracy(y, p, nil)), 0.75)
	// weights 2, 3, 1, 0: correct rows weigh 2 + 1 of 6.
	near(t, "weighted accuracy", val(t)(Accuracy(y, p, []float64{2, 3, 1, 0})), 0.5)
}

func TestLogLoss(t *testing.T) {
	y := []float64{1, 2, 3}
	cl := []float64{1, 2, 3}
	prob := []float64{0.7, 0.2, 0.1, 0.1, 0.8, 0.1, 0.3, 0.3, 0.4}
	want := -(math.Log(0.7) + math.Log(0.8) + math.Log(0.4)) / 3
	near(t, "log loss", val(t)(LogLoss(y, cl, prob, nil)), want)
	w := []float64{3, 0, 1}
	near(t, "weighted log loss", val(t)(LogLoss(y, cl, prob, w)), -(3*math.Log(0.7)+math.Log(0.4))/4)
	// A probability 0 of the true class costs −ln(1e−15), not +Inf.
	near(t, "clipped", val(t)(LogLoss([]float64{0}, []float64{0, 1}, []float64{0, 1}, nil)), -math.Log(logLossEpsilon))
}

func TestAUC(t *testing.T) {
	// scikit-learn's roc_auc_score example: 0.75.
	near(t, "auc", val(t)(AUC([]float64{0, 0, 1, 1}, []float64{0.1, 0.4, 0.35, 0.8}, 1, nil)), 0.75)
	// Ties: positives score 0.5 and 0.9, negatives 0.5 and 0.2; the pairs
	// give 0.5 (tie) + 1 + 1 + 1 of 4.
	y := []float64{0, 1, 0, 1}
	s := []float64{0.5, 0.5, 0.2, 0.9}
	near(t, "auc ties", val(t)(AUC(y, s, 1, nil)), 3.5/4)
	// Weight 2 on the tied positive: 0.5·2 + 1·2 + 1 + 1 over 3·2 pairs.
	w := []float64{1, 2, 1, 1}
	near(t, "weighted auc", val(t)(AUC(y, s, 1, w)), 5.0/6)
	near(t, "weighted = repeated", val(t)(AUC(repeat(y, w), repeat(s, w), 1, nil)), 5.0/6)
	// All tied: one half.
	near(t, "all tied", val(t)(AUC(y, []float64{1, 1, 1, 1}, 1, nil)), 0.5)
	// The positive label decides the direction.
	near(t, "other positive", val(t)(AUC(y, s, 0, nil)), 1-3.5/4)
	if _, err := AUC([]float64{1, 1}, []float64{0, 1}, 1, nil); err == nil || !strings.Contains(err.Error(), "both classes") {
		t.Errorf("one class: err = %v", err)
	}
	if _, err := AUC(y, s, 1, []float64{0, 1, 0, 1}); err == nil {
		t.Error("negatives of weight 0: no error")
	}
}

func TestConfusionMacroF1(t *testing.T) {
	y := []float64{1, 1, 2, 2, 3, 3}
	p := []float64{1, 2, 2, 2, 3, 1}
	cl := []float64{1, 2, 3}
	c, err := NewConfusion(y, p, cl, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{1, 1, 0}, {0, 2, 0}, {1, 0, 1}}
	for i := range want {
		for j := range want[i] {
			if c.Counts[i][j] != want[i][j] {
				t.Fatalf("counts = %v, want %v", c.Counts, want)
			}
		}
	}
	// F1: class 1 2·1/(2+1+1) = 0.5, class 2 4/5, class 3 2/3.
	near(t, "macro F1", c.MacroF1(), (0.5+0.8+2.0/3)/3)
	near(t, "accuracy", c.Accuracy(), 4.0/6)
	// A class that never occurs is left out of the mean.
	near(t, "absent class", val(t)(MacroF1(y, p, []float64{1, 2, 3, 4}, nil)), (0.5+0.8+2.0/3)/3)
	// Weighted: weight 3 on the last row (true 3, predicted 1): class 1
	// 2/(2+3+1), class 2 4/5, class 3 2/(2+3).
	w := []float64{1, 1, 1, 1, 1, 3}
	wantW := (2.0/6 + 0.8 + 2.0/5) / 3
	near(t, "weighted macro F1", val(t)(MacroF1(y, p, cl, w)), wantW)
	near(t, "weighted = repeated", val(t)(MacroF1(repeat(y, w), repeat(p, w), cl, nil)), wantW)
	if _, err := NewConfusion(y, p, []float64{1, 2}, nil); err == nil || !strings.Contains(err.Error(), "y[4] is 3") {
		t.Errorf("label outside the classes: err = %v", err)
	}
}

func TestRegression(t *testing.T) {
	// scikit-learn's r2_score example.
	y := []float64{3, -0.5, 2, 7}
	p := []float64{2.5, 0, 2, 8}
	near(t, "r2", val(t)(R2(y, p, nil)), 0.9486081370449679)
	near(t, "rmse", val(t)(RMSE(y, p, nil)), math.Sqrt(0.375))
	near(t, "mae", val(t)(MAE(y, p, nil)), 0.5)
	// Weighted: ȳ = (2·1 + 2 + 4)/4 = 2; residuals 0, 1, 1; totals 2, 0, 4.
	y, p = []float64{1, 2, 4}, []float64{1, 3, 3}
	w := []float64{2, 1, 1}
	near(t, "weighted r2", val(t)(R2(y, p, w)), 1-2.0/6)
	near(t, "weighted rmse", val(t)(RMSE(y, p, w)), math.Sqrt(0.5))
	near(t, "weighted mae", val(t)(MAE(y, p, w)), 0.5)
	near(t, "r2 weighted = repeated", val(t)(R2(repeat(y, w), repeat(p, w), nil)), 1-2.0/6)
	// Constant target: 1 when exact, else 0, never NaN.
	near(t, "r2 exact constant", val(t)(R2([]float64{2, 2}, []float64{2, 2}, nil)), 1)
	near(t, "r2 constant", val(t)(R2([]float64{2, 2}, []float64{2, 3}, nil)), 0)
}

func TestBadInput(t *testing.T) {
	y := []float64{0, 1, 1}
	p := []float64{0, 1, 0}
	nan := math.NaN()
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"lengths", second(Accuracy(y, p[:2], nil)), "3 labels but 2 predictions"},
		{"empty", second(RMSE(nil, nil, nil)), "no rows"},
		{"NaN label", second(MAE([]float64{0, nan}, []float64{0, 0}, nil)), "y[1] is NaN"},
		{"NaN prediction", second(R2(y, []float64{0, nan, 1}, nil)), "predictions[1] is NaN"},
		{"negative weight", second(Accuracy(y, p, []float64{1, -1, 1})), "w[1] is -1: weights must be ≥ 0"},
		{"NaN weight", second(AUC(y, p, 1, []float64{1, 1, nan})), "w[2] is NaN"},
		{"zero weights", second(Accuracy(y, p, []float64{0, 0, 0})), "every weight is 0"},
		{"weights length", second(Accuracy(y, p, []float64{1})), "1 weights for 3 rows"},
		{"prob range", second(LogLoss(y, []float64{0, 1}, []float64{1, 0, -0.5, 1.5, 0, 1}, nil)), "row 1 is -0.5"},
		{"prob sum", second(LogLoss(y, []float64{0, 1}, []float64{1, 0, 0.5, 0.6, 0, 1}, nil)), "row 1 sum to"},
		{"prob count", second(LogLoss(y, []float64{0, 1}, []float64{1, 0}, nil)), "2 probabilities for 3 rows"},
		{"unknown label", second(LogLoss([]float64{5}, []float64{0, 1}, []float64{1, 0}, nil)), "y[0] is 5, not one of the classes"},
		{"duplicate class", second(LogLoss(y, []float64{1, 1}, make([]float64, 6), nil)), "class 1 listed twice"},
	}
	for _, c := range cases {
		if c.err == nil || !errors.Is(c.err, ErrInput) || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrInput with %q", c.name, c.err, c.want)
		}
	}
}

func second(_ float64, err error) error { return err }
