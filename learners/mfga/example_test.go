package mfga_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/mfga"
)

func ExampleFit() {
	// A disc: label 1 inside radius 1, 0 outside. The Gaussian factor of
	// the Taylor dictionary is a function of the radius, so a handful of
	// selected features suffices.
	r := rand.New(rand.NewPCG(1, 2))
	const n = 400
	X, y := make([]float64, 2*n), make([]float64, n)
	for i := range y {
		a, b := 4*r.Float64()-2, 4*r.Float64()-2
		X[2*i], X[2*i+1] = a, b
		if a*a+b*b < 1 {
			y[i] = 1
		}
	}
	m, err := mfga.Fit(context.Background(), featmap.Dense(n, 2, X), y, mfga.Config{Features: 4})
	if err != nil {
		panic(err)
	}
	for _, x := range [][]float64{{0, 0}, {0.3, -0.5}, {1.5, 1.5}, {-1.8, 0.2}} {
		fmt.Printf("%5.2f → %v\n", x, m.Predict(x))
	}

	// A reloaded model predicts exactly as the original.
	data, err := m.MarshalBinary()
	if err != nil {
		panic(err)
	}
	m2, err := mfga.Load(data)
	if err != nil {
		panic(err)
	}
	x := []float64{0.3, -0.8}
	fmt.Println(len(m.Selected()), "features; same score after reload:", m2.Score(x) == m.Score(x))
	// Output:
	// [ 0.00  0.00] → 1
	// [ 0.30 -0.50] → 1
	// [ 1.50  1.50] → 0
	// [-1.80  0.20] → 0
	// 4 features; same score after reload: true
}
