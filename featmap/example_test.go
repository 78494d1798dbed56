package featmap_test

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/featmap"
)

// ExampleRFF maps rows into Gaussian random Fourier features; their inner
// products approximate exp(−γ‖x−y‖²).
func ExampleRFF() {
	m, err := featmap.NewRFF(featmap.RFFConfig{Inputs: 2, Features: 4096, Gamma: 0.5, Seed: 1})
	if err != nil {
		panic(err)
	}
	X := featmap.Dense(2, 2, []float64{0, 0, 1, 0}) // two points, distance 1
	Z := featmap.Dense(2, m.Outputs(), make([]float64, 2*m.Outputs()))
	if err := m.Transform(Z, X); err != nil {
		panic(err)
	}
	var k float64
	for j, z := range Z.Row(0) {
		k += z * Z.Row(1)[j]
	}
	fmt.Printf("approx %.1f, exact exp(-0.5) = 0.6\n", k)
	// Output: approx 0.6, exact exp(-0.5) = 0.6
}

// ExampleNystrom builds Nyström features on 3 of 50 rows: the kernel is
// reproduced exactly between landmarks and approximated elsewhere.
func ExampleNystrom() {
	X := featmap.Dense(50, 1, make([]float64, 50))
	for i := range X.Data {
		X.Data[i] = float64(i) / 10 // 0, 0.1, …, 4.9
	}
	m, err := featmap.NewNystrom(X, featmap.NystromConfig{Inputs: 1, Landmarks: 3, Gamma: 0.5, Seed: 1})
	if err != nil {
		panic(err)
	}
	land := m.Landmarks()
	z := func(x float64) []float64 {
		out := make([]float64, m.Outputs())
		m.TransformRow(out, []float64{x})
		return out
	}
	dot := func(a, b []float64) (s float64) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	a, b := land[0], land[1]
	fmt.Printf("rank %d; between landmarks: %.6f (exact %.6f)\n", m.Rank(), dot(z(a), z(b)), math.Exp(-0.5*(a-b)*(a-b)))
	fmt.Printf("k(x, x) at a landmark %.3f, at x = 40, far from all: %.3f (exact 1)\n", dot(z(a), z(a)), dot(z(40), z(40)))
	// Output:
	// rank 3; between landmarks: 0.014921 (exact 0.014921)
	// k(x, x) at a landmark 1.000, at x = 40, far from all: 0.000 (exact 1)
}

func ExampleFromRows() {
	X, err := featmap.FromRows([][]float64{{0, 1}, {2, 3}, {4, 5}})
	if err != nil {
		panic(err)
	}
	fmt.Println(X.Rows, "×", X.Cols, "row 1:", X.Row(1))
	// A gonum *mat.Dense goes in through featmap.FromMat(a) the same way.
	// Output: 3 × 2 row 1: [2 3]
}
