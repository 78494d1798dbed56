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

// TestLogisticWeightedOptions: LogisticWeighted takes Logistic's options.
// Init starts the search (from the minimiser it stops at once, with the
// same coefficients); Precondition samples the weighted Hessian and
// reaches the same minimiser in fewer evaluations, also when the sampled
// rows all weigh 0 (then it falls back to plain L-BFGS, the same bits); a
// bad Init or a negative Precondition is an error, as for Logistic.
func TestLogisticWeightedOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n, d := 3000, 10
	X, y := classData(rng, n, d, 0.3)
	for j := range X { // correlated, badly scaled columns, as TestLogisticPrecondition
		X[j] *= float64(1 + j%d/4)
		if j%d > 0 {
			X[j] += 0.5 * X[j-1]
		}
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = 0.25 + rng.Float64()*2
	}
	var plain, pre, warm Result
	c0, b0, err := LogisticWeighted(X, n, d, y, w, 1e-3, LogisticOptions{GradTol: 1e-7, Info: &plain})
	if err != nil {
		t.Fatal(err)
	}
	c1, b1, err := LogisticWeighted(X, n, d, y, w, 1e-3, LogisticOptions{GradTol: 1e-7, Info: &pre, Precondition: 10})
	if err != nil {
		t.Fatal(err)
	}
	if pre.Status != StatusGradConverged || pre.Evaluations >= plain.Evaluations {
		t.Errorf("preconditioned %v after %d evaluations, plain %v after %d", pre.Status, pre.Evaluations, plain.Status, plain.Evaluations)
	}
	near(t, "preconditioned", append(c1, b1), append(c0, b0), 1e-6)
	t.Logf("%d evaluations preconditioned, %d plain", pre.Evaluations, plain.Evaluations)

	c2, b2, err := LogisticWeighted(X, n, d, y, w, 1e-3, LogisticOptions{GradTol: 1e-7, Info: &warm, Init: append(append([]float64(nil), c0...), b0)})
	if err != nil {
		t.Fatal(err)
	}
	if warm.Iterations != 0 || warm.Evaluations != 1 {
		t.Errorf("Init at the minimiser: %d iterations, %d evaluations, want 0 and 1", warm.Iterations, warm.Evaluations)
	}
	near(t, "init", append(c2, b2), append(c0, b0), 0)

	zero := append([]float64(nil), w...)
	for i := 0; i < n; i += 100 {
		zero[i] = 0
	}
	var p0, p1 Result
	cz, _, err := LogisticWeighted(X, n, d, y, zero, 1e-3, LogisticOptions{Info: &p0})
	if err != nil {
		t.Fatal(err)
	}
	cp, _, err := LogisticWeighted(X, n, d, y, zero, 1e-3, LogisticOptions{Info: &p1, Precondition: 100})
	if err != nil {
		t.Fatal(err)
	}
	if p0.Evaluations != p1.Evaluations || math.Float64bits(cz[0]) != math.Float64bits(cp[0]) {
		t.Errorf("sample of weight 0: %d evaluations, %v; plain %d, %v", p1.Evaluations, cp[0], p0.Evaluations, cz[0])
	}

	for _, c := range []struct {
		opt  LogisticOptions
		want string
	}{
		{LogisticOptions{Precondition: -1}, "Precondition = -1"},
		{LogisticOptions{Init: make([]float64, d)}, "len(Init) = 10, want 11"},
		{LogisticOptions{Init: []float64{math.Inf(1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, "Init[0] = +Inf"},
	} {
		if _, _, err := LogisticWeighted(X, n, d, y, w, 1e-3, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.opt, err, c.want)
		}
	}
}
