package solvers

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/refmath"
)

func classData(rng *rand.Rand, n, d int, sep float64) (X, y []float64) {
	X = make([]float64, n*d)
	y = make([]float64, n)
	for i := 0; i < n; i++ {
		y[i] = 1
		if i%2 == 1 {
			y[i] = -1
		}
		for j := 0; j < d; j++ {
			X[i*d+j] = rng.NormFloat64()
		}
		X[i*d] += sep * y[i]
	}
	return X, y
}

// logisticNewton minimises the logistic objective by Newton's method.
func logisticNewton(X []float64, n, d int, y []float64, lambda float64) []float64 {
	p := d + 1
	v := make([]float64, p)
	for it := 0; it < 100; it++ {
		g := make([]float64, p)
		H := make([]float64, p*p)
		for i := 0; i < n; i++ {
			xi := append(append([]float64(nil), X[i*d:(i+1)*d]...), 1)
			m := y[i] * dot(v, xi)
			s := 1 / (1 + math.Exp(m)) // σ(−m)
			for a := 0; a < p; a++ {
				g[a] += -y[i] * s * xi[a] / float64(n)
				for b := a; b < p; b++ {
					h := s * (1 - s) * xi[a] * xi[b] / float64(n)
					H[a*p+b] += h
					if b != a {
						H[b*p+a] += h
					}
				}
			}
		}
		for a := 0; a < d; a++ {
			g[a] += lambda * v[a]
			H[a*p+a] += lambda
		}
		step, err := refmath.Solve(H, p, g)
		if err != nil {
			panic(err)
		}
		for a := range v {
			v[a] -= step[a]
		}
		if normInf(g) < 1e-14 {
			break
		}
	}
	return v
}

func TestLogisticMatchesNewton(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		n, d        int
		lambda, sep float64
	}{{40, 2, 0.1, 1}, {100, 5, 0.01, 0.5}, {30, 3, 1, 2}, {60, 4, 1e-3, 0.3}} {
		X, y := classData(rng, c.n, c.d, c.sep)
		var info Result
		w, b, err := Logistic(X, c.n, c.d, y, c.lambda, LogisticOptions{Info: &info})
		if err != nil {
			t.Fatal(err)
		}
		ref := logisticNewton(X, c.n, c.d, y, c.lambda)
		for j := 0; j < c.d; j++ {
			if math.Abs(w[j]-ref[j]) > 1e-6*(1+math.Abs(ref[j])) {
				t.Errorf("%+v: w[%d] = %v, Newton %v", c, j, w[j], ref[j])
			}
		}
		if math.Abs(b-ref[c.d]) > 1e-6*(1+math.Abs(ref[c.d])) {
			t.Errorf("%+v: b = %v, Newton %v", c, b, ref[c.d])
		}
		if info.GradNorm > 1e-8 {
			t.Errorf("%+v: gradient norm %g > 1e-8 (%v)", c, info.GradNorm, info.Status)
		}
		t.Logf("%+v: %d iterations, %d evaluations, |g| = %.2g, %v", c, info.Iterations, info.Evaluations, info.GradNorm, info.Status)
	}
}

func TestLogisticSeparable(t *testing.T) {
	// Separable 1-D data: the smaller λ, the larger ‖w‖, and all points are
	// classified correctly.
	X := []float64{-3, -2, -1, 1, 2, 3}
	y := []float64{-1, -1, -1, 1, 1, 1}
	prev := 0.0
	for _, lambda := range []float64{1, 1e-2, 1e-4, 1e-6} {
		w, b, err := Logistic(X, 6, 1, y, lambda, LogisticOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(w[0]) > prev) {
			t.Errorf("λ = %g: |w| = %v not larger than %v", lambda, w[0], prev)
		}
		prev = math.Abs(w[0])
		for i, x := range X {
			if (w[0]*x+b)*y[i] <= 0 {
				t.Errorf("λ = %g: sample %d misclassified", lambda, i)
			}
		}
		if math.Abs(b) > 1e-6*math.Max(1, w[0]) {
			t.Errorf("λ = %g: symmetric data but b = %v", lambda, b)
		}
	}
	if prev < 5 {
		t.Errorf("λ = 1e-6: |w| = %v, want large", prev)
	}
	// No overflow for huge margins.
	w, _, err := Logistic([]float64{-1e3, 1e3}, 2, 1, []float64{-1, 1}, 1e-8, LogisticOptions{NoIntercept: true})
	if err != nil || !isFinite(w[0]) || w[0] <= 0 {
		t.Errorf("huge margins: w = %v, err = %v", w, err)
	}
}

// TestLogisticInit: started from a point, Logistic reaches the same
// minimiser (as Newton's method) as from zero, and started at that
// minimiser it needs fewer evaluations than from zero.
func TestLogisticInit(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n, d, lambda := 200, 4, 1e-2
	X, y := classData(rng, n, d, 0.5)
	ref := logisticNewton(X, n, d, y, lambda)
	var cold Result
	if _, _, err := Logistic(X, n, d, y, lambda, LogisticOptions{Info: &cold}); err != nil {
		t.Fatal(err)
	}
	far := []float64{3, -2, 1, 5, -4}
	for _, init := range [][]float64{far, ref} {
		var info Result
		w, b, err := Logistic(X, n, d, y, lambda, LogisticOptions{Init: init, Info: &info})
		if err != nil {
			t.Fatal(err)
		}
		for j, v := range append(w, b) {
			if math.Abs(v-ref[j]) > 1e-6*(1+math.Abs(ref[j])) {
				t.Errorf("Init %v: coefficient %d = %v, Newton %v", init, j, v, ref[j])
			}
		}
		if info.GradNorm > 1e-8 {
			t.Errorf("Init %v: gradient norm %g", init, info.GradNorm)
		}
		if &init[0] == &ref[0] && info.Evaluations >= cold.Evaluations {
			t.Errorf("started at the minimiser: %d evaluations, from zero %d", info.Evaluations, cold.Evaluations)
		}
	}
}

func TestLogisticErrors(t *testing.T) {
	X := []float64{1, 2, 3, 4}
	y := []float64{1, -1}
	bad := []struct {
		name   string
		X      []float64
		n, d   int
		y      []float64
		lambda float64
		opt    LogisticOptions
	}{
		{"short X", X[:3], 2, 2, y, 1, LogisticOptions{}},
		{"labels", X, 2, 2, []float64{1, 0}, 1, LogisticOptions{}},
		{"short y", X, 2, 2, y[:1], 1, LogisticOptions{}},
		{"NaN X", []float64{1, math.NaN(), 3, 4}, 2, 2, y, 1, LogisticOptions{}},
		{"negative lambda", X, 2, 2, y, -1, LogisticOptions{}},
		{"Inf lambda", X, 2, 2, y, math.Inf(1), LogisticOptions{}},
		{"iterations", X, 2, 2, y, 1, LogisticOptions{MaxIterations: -1}},
		{"gradtol", X, 2, 2, y, 1, LogisticOptions{GradTol: -1}},
		{"memory", X, 2, 2, y, 1, LogisticOptions{Memory: -1}},
		{"zero d", nil, 2, 0, y, 1, LogisticOptions{}},
		{"Init length", X, 2, 2, y, 1, LogisticOptions{Init: []float64{0, 0}}},
		{"Init length no intercept", X, 2, 2, y, 1, LogisticOptions{NoIntercept: true, Init: []float64{0, 0, 0}}},
		{"Init NaN", X, 2, 2, y, 1, LogisticOptions{Init: []float64{0, math.NaN(), 0}}},
	}
	for _, c := range bad {
		if _, _, err := Logistic(c.X, c.n, c.d, c.y, c.lambda, c.opt); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	// X is checked in the first evaluation: every non-finite element is
	// found, whatever the start, the row (in a block of eight or in the
	// tail) and the preconditioner, and named in the error.
	rng := rand.New(rand.NewPCG(9, 9))
	Xb, yb := classData(rng, 300, 3, 1)
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, i := range []int{0, 4, 298*3 + 2} {
			for _, opt := range []LogisticOptions{{}, {Init: []float64{0.5, 0, -1, 0.1}}, {Precondition: 2}, {NoIntercept: true}} {
				X := append([]float64(nil), Xb...)
				X[i] = v
				_, _, err := Logistic(X, 300, 3, yb, 1e-3, opt)
				if want := fmt.Sprintf("X: element %d (row %d, column %d) is %v", i, i/3, i%3, v); err == nil || !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), want) {
					t.Errorf("%v at %d, %+v: err = %v, want %q", v, i, opt, err, want)
				}
			}
		}
	}
	// A margin that overflows with a finite X is not an X error: the fit
	// goes on (and fails on the infinite objective, as it always did).
	_, _, err := Logistic([]float64{1e308, 1e308, 1, 1}, 2, 2, []float64{-1, 1}, 1e-3, LogisticOptions{Init: []float64{1, 1, 0}})
	if err == nil || strings.Contains(err.Error(), "X:") {
		t.Errorf("overflowing margin: err = %v, want the objective's error", err)
	}
}

// TestLogisticPrecondition: the sampled-Hessian start reaches Logistic's
// minimiser (to the gradient tolerance) in fewer evaluations, from zero
// and from a start, with and without an intercept; a stride that leaves a
// singular sample (one row, λ = 0) falls back to plain L-BFGS; a negative
// stride is an error.
func TestLogisticPrecondition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n, d := 4000, 12
	X, y := classData(rng, n, d, 0.3)
	for j := range X { // correlated, badly scaled columns: plain L-BFGS needs many steps
		X[j] *= float64(1 + j%d/4)
		if j%d > 0 {
			X[j] += 0.5 * X[j-1]
		}
	}
	start := make([]float64, d+1)
	start[0] = 0.5
	for _, c := range []LogisticOptions{{}, {NoIntercept: true}, {Init: start}} {
		c.GradTol = 1e-7
		var plain, pre Result
		p, q := c, c
		p.Info, q.Info, q.Precondition = &plain, &pre, 10
		w0, b0, err := Logistic(X, n, d, y, 1e-3, p)
		if err != nil {
			t.Fatal(err)
		}
		w1, b1, err := Logistic(X, n, d, y, 1e-3, q)
		if err != nil {
			t.Fatal(err)
		}
		if pre.Status != StatusGradConverged || pre.Evaluations >= plain.Evaluations {
			t.Errorf("%+v: preconditioned %v after %d evaluations, plain %v after %d", c, pre.Status, pre.Evaluations, plain.Status, plain.Evaluations)
		}
		for j, v := range append(w1, b1) {
			if ref := append(w0, b0)[j]; math.Abs(v-ref) > 1e-6*(1+math.Abs(ref)) {
				t.Errorf("%+v: coefficient %d = %v, plain L-BFGS %v", c, j, v, ref)
			}
		}
		t.Logf("intercept %v, start %v: %d evaluations preconditioned, %d plain", !c.NoIntercept, c.Init != nil, pre.Evaluations, plain.Evaluations)
	}
	var plain, pre Result
	w0, _, err := Logistic(X[:40*d], 40, d, y[:40], 0, LogisticOptions{Info: &plain})
	if err != nil {
		t.Fatal(err)
	}
	w1, _, err := Logistic(X[:40*d], 40, d, y[:40], 0, LogisticOptions{Info: &pre, Precondition: 40})
	if err != nil {
		t.Fatal(err)
	}
	if pre.Evaluations != plain.Evaluations || math.Float64bits(w0[0]) != math.Float64bits(w1[0]) {
		t.Errorf("singular sample: %d evaluations, w0 %v; plain %d, %v", pre.Evaluations, w1[0], plain.Evaluations, w0[0])
	}
	if _, _, err := Logistic(X, n, d, y, 1e-3, LogisticOptions{Precondition: -1}); err == nil {
		t.Error("Precondition = -1: no error")
	}
}
