package solvers

import (
	"errors"
	"math"
	"testing"
)

func rosenbrock(x, g []float64) float64 {
	var f float64
	for i := range g {
		g[i] = 0
	}
	for i := 0; i+1 < len(x); i++ {
		a := x[i+1] - x[i]*x[i]
		b := 1 - x[i]
		f += 100*a*a + b*b
		g[i] += -400*a*x[i] - 2*b
		g[i+1] += 200 * a
	}
	return f
}

func TestLBFGSRosenbrock(t *testing.T) {
	for _, dim := range []int{2, 10} {
		l, err := NewLBFGS(dim, 0)
		if err != nil {
			t.Fatal(err)
		}
		x0 := make([]float64, dim)
		for i := range x0 {
			x0[i] = -1.2
			if i%2 == 1 {
				x0[i] = 1
			}
		}
		res, err := l.Minimize(rosenbrock, x0, LBFGSOptions{MaxIterations: 2000, GradTol: 1e-10, FuncTol: -1})
		if err != nil {
			t.Fatalf("dim %d: %v", dim, err)
		}
		for i, v := range res.X {
			if math.Abs(v-1) > 1e-6 {
				t.Errorf("dim %d: x[%d] = %v, want 1 (status %v, iters %d)", dim, i, v, res.Status, res.Iterations)
			}
		}
		if !res.Status.Converged() {
			t.Errorf("dim %d: status %v", dim, res.Status)
		}
		t.Logf("dim %d: %d iterations, %d evaluations, f = %g, |g| = %g, %v", dim, res.Iterations, res.Evaluations, res.F, res.GradNorm, res.Status)
	}
}

func TestLBFGSQuadratic(t *testing.T) {
	// f = ½xᵀAx − bᵀx with A = MᵀM + I; minimiser solves Ax = b.
	const n = 6
	var A [n][n]float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				A[i][j] += math.Sin(float64(k*n+i+1)) * math.Sin(float64(k*n+j+1))
			}
		}
		A[i][i]++
	}
	b := []float64{1, -2, 3, 0.5, -1, 2}
	f := func(x, g []float64) float64 {
		var v float64
		for i := 0; i < n; i++ {
			g[i] = -b[i]
			for j := 0; j < n; j++ {
				g[i] += A[i][j] * x[j]
			}
			v += 0.5*x[i]*(g[i]-b[i]) + 0
		}
		return v
	}
	l, _ := NewLBFGS(n, 0)
	res, err := l.Minimize(f, make([]float64, n), LBFGSOptions{MaxIterations: 100, GradTol: 1e-12, FuncTol: -1})
	if err != nil {
		t.Fatal(err)
	}
	// Check Ax = b.
	for i := 0; i < n; i++ {
		var r float64
		for j := 0; j < n; j++ {
			r += A[i][j] * res.X[j]
		}
		if math.Abs(r-b[i]) > 1e-10 {
			t.Errorf("row %d: Ax−b = %g", i, r-b[i])
		}
	}
	if res.Iterations > 3*n {
		t.Errorf("quadratic took %d iterations", res.Iterations)
	}
	t.Logf("%d iterations, %d evaluations, %v", res.Iterations, res.Evaluations, res.Status)
}

func TestLBFGSIterationCap(t *testing.T) {
	l, _ := NewLBFGS(2, 0)
	res, err := l.Minimize(rosenbrock, []float64{-1.2, 1}, LBFGSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != DefaultLBFGSMaxIterations || res.Status != StatusMaxIterations {
		t.Errorf("iterations %d, status %v; want %d, max iterations", res.Iterations, res.Status, DefaultLBFGSMaxIterations)
	}
	res, _ = l.Minimize(rosenbrock, []float64{-1.2, 1}, LBFGSOptions{MaxIterations: 3})
	if res.Iterations != 3 {
		t.Errorf("iterations %d, want 3", res.Iterations)
	}
}

func TestLBFGSNoAllocs(t *testing.T) {
	l, _ := NewLBFGS(20, 10)
	x0 := make([]float64, 20)
	for i := range x0 {
		x0[i] = 0.1 * float64(i%3)
	}
	f := rosenbrock
	opt := LBFGSOptions{}
	if _, err := l.Minimize(f, x0, opt); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := l.Minimize(f, x0, opt); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Minimize allocates %v times per call", allocs)
	}
}

func TestLBFGSNaN(t *testing.T) {
	l, _ := NewLBFGS(2, 0)
	nan := func(x, g []float64) float64 { g[0], g[1] = 1, 1; return math.NaN() }
	if _, err := l.Minimize(nan, []float64{0, 0}, LBFGSOptions{}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN at x0: err = %v, want ErrNotFinite", err)
	}
	nanGrad := func(x, g []float64) float64 { g[0], g[1] = math.NaN(), 1; return 0 }
	if _, err := l.Minimize(nanGrad, []float64{0, 0}, LBFGSOptions{}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN gradient at x0: err = %v, want ErrNotFinite", err)
	}
	// NaN everywhere except at the start point.
	x0 := []float64{1, 1}
	onlyStart := func(x, g []float64) float64 {
		g[0], g[1] = 2*x[0], 2*x[1]
		if x[0] == 1 && x[1] == 1 {
			return 2
		}
		return math.NaN()
	}
	res, err := l.Minimize(onlyStart, x0, LBFGSOptions{})
	if !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN off the start: err = %v, want ErrNotFinite", err)
	}
	if res.F != 2 || res.X[0] != 1 {
		t.Errorf("NaN off the start: result %v at %v, want the start point", res.F, res.X)
	}
	// NaN only beyond x > 2: the search must shrink its steps and still descend.
	wall := func(x, g []float64) float64 {
		g[0] = 2 * (x[0] - 10)
		if x[0] > 2 {
			return math.NaN()
		}
		return (x[0] - 10) * (x[0] - 10)
	}
	l1, _ := NewLBFGS(1, 0)
	res, err = l1.Minimize(wall, []float64{0}, LBFGSOptions{MaxIterations: 50})
	if err != nil && !errors.Is(err, ErrNotFinite) {
		t.Fatal(err)
	}
	if !(res.F < 100) || res.X[0] > 2 {
		t.Errorf("NaN wall: f = %v at %v", res.F, res.X)
	}
	t.Logf("NaN wall: x = %v, f = %v, %v, err = %v", res.X, res.F, res.Status, err)
}

func TestLBFGSBadInputs(t *testing.T) {
	for _, c := range []struct{ dim, mem int }{{0, 5}, {-1, 5}, {3, -1}} {
		if _, err := NewLBFGS(c.dim, c.mem); err == nil {
			t.Errorf("NewLBFGS(%d, %d): no error", c.dim, c.mem)
		}
	}
	l, _ := NewLBFGS(2, 3)
	if _, err := l.Minimize(rosenbrock, []float64{1}, LBFGSOptions{}); err == nil {
		t.Error("short x0: no error")
	}
	if _, err := l.Minimize(nil, []float64{1, 1}, LBFGSOptions{}); err == nil {
		t.Error("nil f: no error")
	}
	if _, err := l.Minimize(rosenbrock, []float64{1, math.Inf(1)}, LBFGSOptions{}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("Inf in x0: %v", err)
	}
	for _, o := range []LBFGSOptions{{MaxIterations: -1}, {Memory: 4}, {Memory: -1}, {GradTol: math.NaN()}, {FuncTol: math.NaN()}, {MaxLineSearch: -2}} {
		if _, err := l.Minimize(rosenbrock, []float64{0, 0}, o); err == nil {
			t.Errorf("options %+v: no error", o)
		}
	}
	// Already optimal start.
	res, err := l.Minimize(rosenbrock, []float64{1, 1}, LBFGSOptions{})
	if err != nil || res.Status != StatusGradConverged || res.Iterations != 0 {
		t.Errorf("start at optimum: %+v, %v", res, err)
	}
}

func BenchmarkLBFGS20x10(b *testing.B) {
	l, _ := NewLBFGS(20, 10)
	x0 := make([]float64, 20)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := l.Minimize(rosenbrock, x0, LBFGSOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
