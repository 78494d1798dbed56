package solvers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// svmPrimal returns the primal objective at (w, wb), where wb is the weight
// of the appended constant feature bs.
func svmPrimal(X []float64, n, d int, y, w []float64, wb, bs, C float64, loss SVMLoss) float64 {
	obj := 0.5 * (dot(w, w) + wb*wb)
	for i := 0; i < n; i++ {
		t := 1 - y[i]*(dot(w, X[i*d:(i+1)*d])+wb*bs)
		if t > 0 {
			if loss == SquaredHinge {
				t *= t
			}
			obj += C * t
		}
	}
	return obj
}

// svmDual returns the dual objective Σα − ½‖w̃(α)‖² − ½ Σ D α² (to be maximised).
func svmDual(X []float64, n, d int, y, alpha []float64, bs, C float64, loss SVMLoss) float64 {
	w := make([]float64, d)
	var wb, sum, pen float64
	for i := 0; i < n; i++ {
		axpy(alpha[i]*y[i], X[i*d:(i+1)*d], w)
		wb += alpha[i] * y[i] * bs
		sum += alpha[i]
		if loss == SquaredHinge {
			pen += alpha[i] * alpha[i] / (2 * C)
		}
	}
	return sum - 0.5*(dot(w, w)+wb*wb) - 0.5*pen
}

// svmSubgradient minimises the primal by the subgradient method with steps
// 1/(t+1) (the objective is 1-strongly convex) and returns the best value.
func svmSubgradient(X []float64, n, d int, y []float64, C float64, loss SVMLoss, iters int) float64 {
	w := make([]float64, d+1)
	g := make([]float64, d+1)
	best := math.Inf(1)
	for t := 0; t < iters; t++ {
		copy(g, w)
		obj := 0.5 * dot(w, w)
		for i := 0; i < n; i++ {
			xi := X[i*d : (i+1)*d]
			m := 1 - y[i]*(dot(w[:d], xi)+w[d])
			if m <= 0 {
				continue
			}
			c := C * y[i]
			if loss == SquaredHinge {
				obj += C * m * m
				c *= 2 * m
			} else {
				obj += C * m
			}
			axpy(-c, xi, g[:d])
			g[d] -= c
		}
		best = math.Min(best, obj)
		axpy(-1/float64(t+1), g, w)
	}
	return best
}

func TestLinearSVMObjective(t *testing.T) {
	X := []float64{0, 0, 1, 1, 2, 0.5, -1, 0.3, 0.5, 2, 1.5, -1}
	y := []float64{-1, 1, 1, -1, 1, -1}
	const n, d = 6, 2
	for _, loss := range []SVMLoss{SquaredHinge, Hinge} {
		for _, C := range []float64{0.1, 1} {
			w, wb, alpha, _ := svmDualCD(context.Background(), X, n, d, y, C, nil, loss, 1, 100000, 1e-12, 1)
			p := svmPrimal(X, n, d, y, w, wb, 1, C, loss)
			dual := svmDual(X, n, d, y, alpha, 1, C, loss)
			if gap := p - dual; gap > 1e-9 || gap < -1e-12 {
				t.Errorf("%v C=%g: duality gap %g", loss, C, gap)
			}
			sub := svmSubgradient(X, n, d, y, C, loss, 150000)
			if math.Abs(p-sub) > 1e-4 {
				t.Errorf("%v C=%g: objective %.8f, subgradient %.8f", loss, C, p, sub)
			}
			w2, b2, err := LinearSVM(X, n, d, y, C, SVMOptions{Loss: loss, Tol: 1e-12})
			if err != nil {
				t.Fatal(err)
			}
			if p2 := svmPrimal(X, n, d, y, w2, b2, 1, C, loss); math.Abs(p2-p) > 1e-9 {
				t.Errorf("%v C=%g: LinearSVM objective %v, want %v", loss, C, p2, p)
			}
			t.Logf("%v C=%g: primal %.10f dual %.10f subgradient %.10f", loss, C, p, dual, sub)
		}
	}
}

func TestLinearSVMSeparable(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n, d = 200, 5
	X := make([]float64, n*d)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		y[i] = float64(2*(i%2) - 1)
		for j := 0; j < d; j++ {
			X[i*d+j] = rng.NormFloat64()
		}
		X[i*d+1] += 3 * y[i] // margin ≥ ~3 minus noise in one direction
		if y[i]*X[i*d+1] < 0.5 {
			X[i*d+1] = y[i] * 0.5
		}
		X[i*d+2] += 2 // offset: needs the bias
	}
	for _, loss := range []SVMLoss{SquaredHinge, Hinge} {
		w, b, err := LinearSVM(X, n, d, y, 100, SVMOptions{Loss: loss, Seed: 42})
		if err != nil {
			t.Fatal(err)
		}
		errs := 0
		for i := 0; i < n; i++ {
			if y[i]*(dot(w, X[i*d:(i+1)*d])+b) <= 0 {
				errs++
			}
		}
		if errs != 0 {
			t.Errorf("%v: %d training errors on separable data", loss, errs)
		}
		// Determinism.
		w2, b2, _ := LinearSVM(X, n, d, y, 100, SVMOptions{Loss: loss, Seed: 42})
		for j := range w {
			if w[j] != w2[j] || b != b2 {
				t.Fatalf("%v: same seed, different result", loss)
			}
		}
	}
}

func TestLinearSVMErrors(t *testing.T) {
	X := []float64{1, 2, 3, 4}
	y := []float64{1, -1}
	bad := []struct {
		name string
		X    []float64
		y    []float64
		C    float64
		opt  SVMOptions
	}{
		{"short X", X[:3], y, 1, SVMOptions{}},
		{"labels", X, []float64{1, 2}, 1, SVMOptions{}},
		{"NaN X", []float64{1, math.NaN(), 3, 4}, y, 1, SVMOptions{}},
		{"zero C", X, y, 0, SVMOptions{}},
		{"negative C", X, y, -1, SVMOptions{}},
		{"NaN C", X, y, math.NaN(), SVMOptions{}},
		{"loss", X, y, 1, SVMOptions{Loss: 7}},
		{"epochs", X, y, 1, SVMOptions{MaxEpochs: -1}},
		{"tol", X, y, 1, SVMOptions{Tol: -1}},
		{"bias scale", X, y, 1, SVMOptions{BiasScale: -1}},
	}
	for _, c := range bad {
		if _, _, err := LinearSVM(c.X, 2, 2, c.y, c.C, c.opt); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	// Zero rows without bias and hinge loss must not divide by zero.
	w, b, err := LinearSVM([]float64{0, 0, 1, 1}, 2, 2, y, 1, SVMOptions{Loss: Hinge, NoBias: true})
	if err != nil || b != 0 || !isFinite(w[0]) {
		t.Errorf("zero row: w = %v, b = %v, err = %v", w, b, err)
	}
}
