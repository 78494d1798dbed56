package rks_test

import (
	"context"
	"fmt"

	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/rks"
)

func ExampleFit() {
	// XOR on 400 points of [−1, 1]²: the label is 1 when x₁ and x₂ have the
	// same sign, else 0, a problem no linear classifier solves.
	r := rand.New(rand.NewPCG(1, 2))
	Xs, y := make([]float64, 2*400), make([]float64, 400)
	for i := range y {
		a, b := 2*r.Float64()-1, 2*r.Float64()-1
		Xs[2*i], Xs[2*i+1] = a, b
		if a*b > 0 {
			y[i] = 1
		}
	}
	X := featmap.Dense(400, 2, Xs)
	m, err := rks.Fit(context.Background(), X, y, rks.Config{Seed: 1})
	if err != nil {
		panic(err)
	}
	for _, x := range [][]float64{{0.5, 0.5}, {-0.5, 0.5}, {-0.5, -0.5}, {0.5, -0.5}} {
		fmt.Printf("%5.2f → %v\n", x, m.Predict(x))
	}

	// The model file stores the sampled features: a reloaded model
	// (rks.Load of m.MarshalBinary()) predicts exactly as the original.
	data, err := m.MarshalBinary()
	if err != nil {
		panic(err)
	}
	m2, err := rks.Load(data)
	if err != nil {
		panic(err)
	}
	x := []float64{0.3, -0.8}
	same := m2.Score(x) == m.Score(x)
	fmt.Println(m.Config().Features, "features; same score after reload:", same)
	// Output:
	// [ 0.50  0.50] → 1
	// [-0.50  0.50] → 0
	// [-0.50 -0.50] → 1
	// [ 0.50 -0.50] → 0
	// 100 features; same score after reload: true
}
