package solvers_test

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/solvers"
)

func ExampleLBFGS_Minimize() {
	// Minimise the 2-D Rosenbrock function; the LBFGS value is reusable for
	// many more solves of the same dimension without allocating.
	rosen := func(x, g []float64) float64 {
		a, b := x[1]-x[0]*x[0], 1-x[0]
		g[0] = -400*a*x[0] - 2*b
		g[1] = 200 * a
		return 100*a*a + b*b
	}
	l, err := solvers.NewLBFGS(2, 10)
	if err != nil {
		panic(err)
	}
	res, err := l.Minimize(rosen, []float64{-1.2, 1}, solvers.LBFGSOptions{MaxIterations: 200, GradTol: 1e-9, FuncTol: -1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("x = [%.6f %.6f], converged: %v\n", res.X[0], res.X[1], res.Status.Converged())

	// With the default options it stops after 10 iterations, like scipy's
	// fmin_l_bfgs_b(maxiter=10).
	res, _ = l.Minimize(rosen, []float64{-1.2, 1}, solvers.LBFGSOptions{})
	fmt.Println(res.Iterations, res.Status)
	// Output:
	// x = [1.000000 1.000000], converged: true
	// 10 max iterations
}

func ExampleMinimizeCircle() {
	// f(b) = Σ exp(−y_i cos(p_i − b)) has several local minima on the circle.
	p := []float64{0.5, 2.5, -2}
	y := []float64{1, -1.5, 0.8}
	f := func(b float64) (val, deriv float64) {
		for i := range p {
			e := math.Exp(-y[i] * math.Cos(p[i]-b))
			val += e
			deriv -= y[i] * math.Sin(p[i]-b) * e
		}
		return val, deriv
	}
	b, v := solvers.MinimizeCircle(f, solvers.CircleOptions{})
	fmt.Printf("b = %.6f, f(b) = %.6f\n", b, v)
	// Output: b = -0.675003, f(b) = 1.726510
}

func ExampleRidge() {
	// y = 2·x₀ − x₁ + 3 exactly; with a tiny λ the fit recovers it.
	X := []float64{
		0, 1,
		1, 0,
		2, 2,
		3, 1,
		4, 5,
	}
	y := make([]float64, 5)
	for i := range y {
		y[i] = 2*X[2*i] - X[2*i+1] + 3
	}
	w, b, err := solvers.Ridge(X, 5, 2, y, 1e-12, solvers.RidgeOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("w = [%.4f %.4f], b = %.4f\n", w[0], w[1], b)
	// Output: w = [2.0000 -1.0000], b = 3.0000
}

func ExampleLogistic() {
	X := []float64{-2, -1, -0.5, 0.5, 1, 2}
	y := []float64{-1, -1, 1, -1, 1, 1}
	w, b, err := solvers.Logistic(X, 6, 1, y, 0.01, solvers.LogisticOptions{})
	if err != nil {
		panic(err)
	}
	// The data are symmetric about 0, so the intercept vanishes (up to
	// rounding, whose sign differs between architectures).
	fmt.Printf("w = %.4f, |b| < 1e-9: %v\n", w[0], math.Abs(b) < 1e-9)
	// Output: w = 1.2710, |b| < 1e-9: true
}

func ExampleLinearSVM() {
	X := []float64{0, 0, 1, 1, 3, 3, 4, 4}
	y := []float64{-1, -1, 1, 1}
	w, b, err := solvers.LinearSVM(X, 4, 2, y, 10, solvers.SVMOptions{Tol: 1e-10})
	if err != nil {
		panic(err)
	}
	for i := 0; i < 4; i++ {
		fmt.Print(math.Copysign(1, w[0]*X[2*i]+w[1]*X[2*i+1]+b), " ")
	}
	fmt.Println()
	// Output: -1 -1 1 1
}

func ExampleProjectSimplex() {
	v := []float64{0.5, 2, -1}
	x := make([]float64, 3)
	if err := solvers.ProjectSimplex(x, v, 1); err != nil {
		panic(err)
	}
	fmt.Println(x)
	// Output: [0 1 0]
}
