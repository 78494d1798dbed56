package solvers

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/refmath"
)

func randData(rng *rand.Rand, n, d int) (X, y []float64) {
	X = make([]float64, n*d)
	y = make([]float64, n)
	for i := range X {
		X[i] = rng.NormFloat64() + 0.5
	}
	for i := 0; i < n; i++ {
		y[i] = 3 + 0.1*rng.NormFloat64()
		for j := 0; j < d; j++ {
			y[i] += float64(j+1) * X[i*d+j]
		}
	}
	return X, y
}

// ridgeReference solves the augmented least-squares problem
// min ‖[X 1; √(λn) I 0] [w; b] − [y; 0]‖ through its normal equations
// AᵀA·v = Aᵀr by refmath.Solve (independent of the Cholesky under test).
func ridgeReference(X []float64, n, d int, y []float64, lambda float64, intercept bool) ([]float64, float64) {
	cols := d
	if intercept {
		cols++
	}
	row := func(i int) ([]float64, float64) { // row i of [A | r]
		a := make([]float64, cols)
		if i < n {
			copy(a, X[i*d:(i+1)*d])
			if intercept {
				a[d] = 1
			}
			return a, y[i]
		}
		a[i-n] = math.Sqrt(lambda * float64(n))
		return a, 0
	}
	ata := make([]float64, cols*cols)
	atr := make([]float64, cols)
	for i := 0; i < n+d; i++ {
		a, r := row(i)
		for j := 0; j < cols; j++ {
			atr[j] += a[j] * r
			for k := 0; k < cols; k++ {
				ata[j*cols+k] += a[j] * a[k]
			}
		}
	}
	sol, err := refmath.Solve(ata, cols, atr)
	if err != nil {
		panic(err)
	}
	if intercept {
		return sol[:d], sol[d]
	}
	return sol, 0
}

func TestRidgeMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		n, d      int
		lambda    float64
		intercept bool
	}{{50, 3, 0, true}, {50, 3, 0.1, true}, {20, 8, 1e-3, true}, {30, 4, 0.5, false}, {5, 10, 0.2, true}, {40, 1, 0, false}} {
		X, y := randData(rng, c.n, c.d)
		w, b, err := Ridge(X, c.n, c.d, y, c.lambda, RidgeOptions{NoIntercept: !c.intercept})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		wr, br := ridgeReference(X, c.n, c.d, y, c.lambda, c.intercept)
		for j := range w {
			if math.Abs(w[j]-wr[j]) > 1e-9*(1+math.Abs(wr[j])) {
				t.Errorf("%+v: w[%d] = %v, want %v", c, j, w[j], wr[j])
			}
		}
		if math.Abs(b-br) > 1e-9*(1+math.Abs(br)) {
			t.Errorf("%+v: bias = %v, want %v", c, b, br)
		}
	}
}

func TestRidgeSolverSeveralTargets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d = 30, 4
	X, y := randData(rng, n, d)
	s, err := NewRidgeSolver(X, n, d, 0.05, RidgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	X[0] = 1e9 // the solver must not retain the caller's slice
	for k := 0; k < 3; k++ {
		yk := make([]float64, n)
		for i := range yk {
			yk[i] = y[i]*float64(k+1) - float64(k)
		}
		w := make([]float64, d)
		b, err := s.Solve(w, yk)
		if err != nil {
			t.Fatal(err)
		}
		X0 := append([]float64(nil), X...)
		X0[0] = s.xc[0] + s.mean[0]
		wr, br := ridgeReference(X0, n, d, yk, 0.05, true)
		for j := range w {
			if math.Abs(w[j]-wr[j]) > 1e-9*(1+math.Abs(wr[j])) {
				t.Errorf("target %d: w[%d] = %v, want %v", k, j, w[j], wr[j])
			}
		}
		if math.Abs(b-br) > 1e-9*(1+math.Abs(br)) {
			t.Errorf("target %d: bias = %v, want %v", k, b, br)
		}
	}
	if _, err := s.Solve(make([]float64, d+1), y); err == nil {
		t.Error("wrong len(w): no error")
	}
	if _, err := s.Solve(make([]float64, d), y[1:]); err == nil {
		t.Error("wrong len(y): no error")
	}
}

func TestRidgeErrors(t *testing.T) {
	X := []float64{1, 2, 3, 4, 5, 6} // 3×2
	y := []float64{1, 2, 3}
	cases := []struct {
		name   string
		X      []float64
		n, d   int
		y      []float64
		lambda float64
		want   string
	}{
		{"short X", X[:5], 3, 2, y, 0.1, "len"},
		{"zero n", nil, 0, 2, nil, 0.1, "rows"},
		{"zero d", nil, 3, 0, y, 0.1, "columns"},
		{"short y", X, 3, 2, y[:2], 0.1, "len"},
		{"NaN X", []float64{1, 2, math.NaN(), 4, 5, 6}, 3, 2, y, 0.1, "non-finite"},
		{"Inf y", X, 3, 2, []float64{1, math.Inf(1), 3}, 0.1, "non-finite"},
		{"negative lambda", X, 3, 2, y, -1, "lambda"},
		{"NaN lambda", X, 3, 2, y, math.NaN(), "lambda"},
		// Columns x and x+1 are collinear after centring.
		{"collinear", []float64{1, 2, 2, 3, 4, 5}, 3, 2, y, 0, "singular"},
		{"constant column", []float64{1, 7, 2, 7, 3, 7}, 3, 2, y, 0, "singular"},
		{"d > n", []float64{1, 2, 3, 4, 5, 6}, 2, 3, y[:2], 0, "singular"},
	}
	for _, c := range cases {
		_, _, err := Ridge(c.X, c.n, c.d, c.y, c.lambda, RidgeOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
	_, _, err := Ridge([]float64{1, math.NaN()}, 1, 2, []float64{1}, 1, RidgeOptions{})
	if !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v does not wrap ErrNotFinite", err)
	}
	// Collinear but regularised: fine.
	if _, _, err := Ridge([]float64{1, 2, 2, 3, 4, 5}, 3, 2, y, 0.01, RidgeOptions{}); err != nil {
		t.Errorf("collinear with λ > 0: %v", err)
	}
}
