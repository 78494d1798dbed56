package solvers

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// weightedData returns n rows of d inputs with ±1 labels (a noisy linear
// rule) and real targets, the weights (2 on the first dup rows, 0 on the
// next zero rows, 1 elsewhere) and the data with the rows of weight 2
// duplicated and those of weight 0 dropped.
func weightedData(n, d, dup, zero int) (X, y, t, w, Xd, yd, td []float64) {
	r := rand.New(rand.NewPCG(5, 6))
	X, y, t, w = make([]float64, n*d), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < d; j++ {
			X[i*d+j] = r.NormFloat64()
			s += float64(j+1) * X[i*d+j]
		}
		y[i], t[i], w[i] = 1, s+r.NormFloat64(), 1
		if s+r.NormFloat64() < 0.3 {
			y[i] = -1
		}
		switch {
		case i < dup:
			w[i] = 2
		case i < dup+zero:
			w[i] = 0
		}
	}
	for i := 0; i < n; i++ {
		for k := 0; k < int(w[i]); k++ {
			Xd = append(Xd, X[i*d:(i+1)*d]...)
			yd, td = append(yd, y[i]), append(td, t[i])
		}
	}
	return
}

func near(t *testing.T, name string, a, b []float64, tol float64) {
	t.Helper()
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			t.Fatalf("%s[%d]: %v vs %v", name, i, a[i], b[i])
		}
	}
}

// TestWeightedDuplication: weight 2 is the row twice and 0 drops it, for
// LogisticWeighted and RidgeWeighted (to 1e-7 and 1e-10: the order of the
// sums differs); unit weights give Logistic's and Ridge's models.
func TestWeightedDuplication(t *testing.T) {
	const n, d = 200, 3
	X, y, tg, w, Xd, yd, td := weightedData(n, d, 40, 20)
	nd := len(yd)
	cw, bw, err := LogisticWeighted(X, n, d, y, w, 1e-3, LogisticOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cd, bd, err := Logistic(Xd, nd, d, yd, 1e-3, LogisticOptions{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "logistic", append(cw, bw), append(cd, bd), 1e-7)
	rw, rb, err := RidgeWeighted(X, n, d, tg, w, 1e-2)
	if err != nil {
		t.Fatal(err)
	}
	dw, db, err := Ridge(Xd, nd, d, td, 1e-2, RidgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "ridge", append(rw, rb), append(dw, db), 1e-10)
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	c1, b1, _ := LogisticWeighted(X, n, d, y, ones, 1e-3, LogisticOptions{})
	c0, b0, _ := Logistic(X, n, d, y, 1e-3, LogisticOptions{})
	near(t, "logistic ones", append(c1, b1), append(c0, b0), 1e-7)
	if math.Abs(cw[0]-c0[0]) < 1e-4 {
		t.Errorf("the weights changed nothing: %v vs %v", cw[0], c0[0])
	}
}

func TestWeightedErrors(t *testing.T) {
	X, y, tg, w, _, _, _ := weightedData(10, 2, 0, 0)
	bad := append([]float64(nil), w...)
	bad[4] = -2
	nan := append([]float64(nil), w...)
	nan[1] = math.NaN()
	for _, c := range []struct {
		w    []float64
		want string
	}{{bad, "weight 4 is -2"}, {nan, "weight 1 is NaN"}, {make([]float64, 10), "sum to 0"}, {w[:3], "3 weights for 10 rows"}} {
		if _, _, err := LogisticWeighted(X, 10, 2, y, c.w, 1, LogisticOptions{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("logistic %v: %v", c.w, err)
		}
		if _, _, err := RidgeWeighted(X, 10, 2, tg, c.w, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ridge %v: %v", c.w, err)
		}
	}
}
