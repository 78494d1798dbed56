package mfga_test

import (
	"context"
	"fmt"

	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/mfga"
)

func ExampleFit() {
	// A disc: label 1 inside radius 1, 0 outside, on 400 points of
	// [−2, 2]². The Gaussian factor of the Taylor dictionary is a function
	// of the radius, so a handful of selected features suffices.
	r := rand.New(rand.NewPCG(1, 2))
	Xs, y := make([]float64, 2*400), make([]float64, 400)
	for i := range y {
		a, b := 4*r.Float64()-2, 4*r.Float64()-2
		Xs[2*i], Xs[2*i+1] = a, b
		if a*a+b*b < 1 {
			y[i] = 1
		}
	}
	X := featmap.Dense(400, 2, Xs)
	m, err := mfga.Fit(context.Background(), X, y, mfga.Config{Features: 4})
	if err != nil {
		panic(err)
	}
	for _, x := range [][]float64{{0, 0}, {0.3, -0.5}, {1.5, 1.5}, {-1.8, 0.2}} {
		fmt.Printf("%5.2f → %v\n", x, m.Predict(x))
	}

	// A reloaded model (mfga.Load of m.MarshalBinary()) predicts exactly as
	// the original.
	data, err := m.MarshalBinary()
	if err != nil {
		panic(err)
	}
	m2, err := mfga.Load(data)
	if err != nil {
		panic(err)
	}
	x := []float64{0.3, -0.8}
	same := m2.Score(x) == m.Score(x)
	fmt.Println(len(m.Selected()), "features; same score after reload:", same)
	// Output:
	// [ 0.00  0.00] → 1
	// [ 0.30 -0.50] → 1
	// [ 1.50  1.50] → 0
	// [-1.80  0.20] → 0
	// 4 features; same score after reload: true
}
