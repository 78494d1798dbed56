package solvers

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// bruteProjectSimplex enumerates the supports S: on S, x = v − θ with
// θ = (Σ_S v − s)/|S|; the feasible candidate closest to v is the projection.
func bruteProjectSimplex(v []float64, s float64) []float64 {
	n := len(v)
	var best []float64
	bestD := math.Inf(1)
	for mask := 1; mask < 1<<n; mask++ {
		var sum float64
		k := 0
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				sum += v[i]
				k++
			}
		}
		theta := (sum - s) / float64(k)
		x := make([]float64, n)
		ok := true
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				x[i] = v[i] - theta
				if x[i] < 0 {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		var dist float64
		for i := range x {
			dist += (x[i] - v[i]) * (x[i] - v[i])
		}
		if dist < bestD {
			best, bestD = x, dist
		}
	}
	return best
}

func TestProjectSimplex(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(6)
		v := make([]float64, n)
		for i := range v {
			v[i] = 3 * rng.NormFloat64()
			if rng.IntN(4) == 0 && i > 0 {
				v[i] = v[i-1] // ties
			}
		}
		s := 0.1 + 5*rng.Float64()
		x := make([]float64, n)
		if err := ProjectSimplex(x, v, s); err != nil {
			t.Fatal(err)
		}
		want := bruteProjectSimplex(v, s)
		var sum float64
		for i := range x {
			if math.Abs(x[i]-want[i]) > 1e-12*(1+s) {
				t.Fatalf("v = %v, s = %v: got %v, want %v", v, s, x, want)
			}
			if x[i] < 0 {
				t.Fatalf("negative entry %v", x)
			}
			sum += x[i]
		}
		if math.Abs(sum-s) > 1e-12*(1+s) {
			t.Fatalf("sum %v, want %v", sum, s)
		}
		// Idempotent, and in place.
		x2 := append([]float64(nil), x...)
		if err := ProjectSimplex(x2, x2, s); err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if math.Abs(x2[i]-x[i]) > 1e-13*(1+s) {
				t.Fatalf("not idempotent: %v → %v", x, x2)
			}
		}
	}
	for _, c := range []struct {
		dst, v []float64
		s      float64
	}{
		{make([]float64, 2), []float64{1, 2}, 0},
		{make([]float64, 2), []float64{1, 2}, -1},
		{make([]float64, 2), []float64{1, 2}, math.Inf(1)},
		{make([]float64, 1), []float64{1, 2}, 1},
		{nil, nil, 1},
		{make([]float64, 2), []float64{1, math.NaN()}, 1},
	} {
		if err := ProjectSimplex(c.dst, c.v, c.s); err == nil {
			t.Errorf("ProjectSimplex(%v, %v, %v): no error", c.dst, c.v, c.s)
		}
	}
}

// quadratic returns f(x) = ½ xᵀAx − bᵀx with A = MᵀM (PSD) of size n.
func quadratic(rng *rand.Rand, n int) (func(x, g []float64) float64, [][]float64, []float64) {
	M := make([][]float64, n)
	for i := range M {
		M[i] = make([]float64, n)
		for j := range M[i] {
			M[i][j] = rng.NormFloat64()
		}
	}
	A := make([][]float64, n)
	for i := range A {
		A[i] = make([]float64, n)
		for j := range A[i] {
			for k := 0; k < n; k++ {
				A[i][j] += M[k][i] * M[k][j]
			}
		}
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = 2 * rng.NormFloat64()
	}
	f := func(x, g []float64) float64 {
		var v float64
		for i := range x {
			g[i] = -b[i]
			for j := range x {
				g[i] += A[i][j] * x[j]
			}
			v += x[i] * (0.5*(g[i]+b[i]) - b[i])
		}
		return v
	}
	return f, A, b
}

func TestFISTASimplexKKT(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(6)
		f, _, _ := quadratic(rng, n)
		s := 1 + 3*rng.Float64()
		x0 := make([]float64, n)
		for i := range x0 {
			x0[i] = 1
		}
		res, err := FISTASimplex(f, x0, s, FISTAOptions{MaxIterations: 5000, Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		// KKT: g_i = μ on the support, g_i ≥ μ off it.
		g := make([]float64, n)
		f(res.X, g)
		mu := math.Inf(1)
		var sum float64
		for i, x := range res.X {
			if x > 1e-7 {
				mu = math.Min(mu, g[i])
			}
			if x < 0 {
				t.Fatalf("negative entry %v", res.X)
			}
			sum += x
		}
		if math.Abs(sum-s) > 1e-9 {
			t.Errorf("trial %d: Σx = %v, want %v", trial, sum, s)
		}
		for i, x := range res.X {
			if x > 1e-7 && math.Abs(g[i]-mu) > 1e-5*(1+math.Abs(mu)) {
				t.Errorf("trial %d: support gradient %v ≠ μ = %v (x = %v, g = %v)", trial, g[i], mu, res.X, g)
			}
			if x <= 1e-7 && g[i] < mu-1e-5*(1+math.Abs(mu)) {
				t.Errorf("trial %d: off-support gradient %v < μ = %v", trial, g[i], mu)
			}
		}
	}
}

func TestFISTASimplexProjection(t *testing.T) {
	// min ½‖x − c‖² over the simplex is the projection of c.
	c := []float64{0.3, 2, -1, 1.5, 0.2}
	f := func(x, g []float64) float64 {
		var v float64
		for i := range x {
			g[i] = x[i] - c[i]
			v += 0.5 * g[i] * g[i]
		}
		return v
	}
	res, err := FISTASimplex(f, []float64{1, 1, 1, 1, 1}, 2, FISTAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, len(c))
	if err := ProjectSimplex(want, c, 2); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(res.X[i]-want[i]) > 1e-8 {
			t.Errorf("x = %v, want %v (%v)", res.X, want, res.Status)
			break
		}
	}
	if res.Iterations > DefaultFISTAMaxIterations {
		t.Errorf("%d iterations", res.Iterations)
	}
	// Default cap of 100 iterations on a slow problem.
	rng := rand.New(rand.NewPCG(1, 1))
	q, _, _ := quadratic(rng, 30)
	res, err = FISTASimplex(q, make([]float64, 30), 30, FISTAOptions{Tol: 1e-300})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations > DefaultFISTAMaxIterations {
		t.Errorf("%d iterations > default cap", res.Iterations)
	}
}

func TestFISTASimplexErrors(t *testing.T) {
	f := func(x, g []float64) float64 { return 0 }
	nan := func(x, g []float64) float64 { return math.NaN() }
	x0 := []float64{1, 1}
	if _, err := FISTASimplex(f, x0, 0, FISTAOptions{}); err == nil {
		t.Error("s = 0: no error")
	}
	if _, err := FISTASimplex(nil, x0, 1, FISTAOptions{}); err == nil {
		t.Error("nil f: no error")
	}
	if _, err := FISTASimplex(f, nil, 1, FISTAOptions{}); err == nil {
		t.Error("empty x0: no error")
	}
	if _, err := FISTASimplex(nan, x0, 1, FISTAOptions{}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN objective: %v", err)
	}
	for _, o := range []FISTAOptions{{MaxIterations: -1}, {Tol: -1}, {L0: -1}, {Eta: 0.5}, {Eta: math.NaN()}} {
		if _, err := FISTASimplex(f, x0, 1, o); err == nil {
			t.Errorf("options %+v: no error", o)
		}
	}
	// NaN off the start point: backtracking shrinks the step to nothing; the
	// start point comes back without an error.
	start := func(x, g []float64) float64 {
		g[0], g[1] = 1, -1
		if x[0] == 0.5 {
			return 0
		}
		return math.NaN()
	}
	res, err := FISTASimplex(start, x0, 1, FISTAOptions{})
	if err != nil || res.X[0] != 0.5 || res.F != 0 {
		t.Errorf("NaN off start: %+v, %v", res, err)
	}
}
