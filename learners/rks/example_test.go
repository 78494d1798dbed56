package rks_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/learners/internal/exampledata"
	"github.com/rfkit/rfkit/learners/rks"
)

func ExampleFit() {
	// XOR on 400 points of [−1, 1]²: the label is 1 when x₁ and x₂ have the
	// same sign, else 0, a problem no linear classifier solves.
	X, y := exampledata.Square(400, 1, func(a, b float64) bool { return a*b > 0 })
	m, err := rks.Fit(context.Background(), X, y, rks.Config{Seed: 1})
	if err != nil {
		panic(err)
	}
	for _, x := range [][]float64{{0.5, 0.5}, {-0.5, 0.5}, {-0.5, -0.5}, {0.5, -0.5}} {
		fmt.Printf("%5.2f → %v\n", x, m.Predict(x))
	}

	// The model file stores the sampled features: a reloaded model
	// (rks.Load of m.MarshalBinary()) predicts exactly as the original.
	same := exampledata.SameScoreAfterReload(m, rks.Load, []float64{0.3, -0.8})
	fmt.Println(m.Config().Features, "features; same score after reload:", same)
	// Output:
	// [ 0.50  0.50] → 1
	// [-0.50  0.50] → 0
	// [-0.50 -0.50] → 1
	// [ 0.50 -0.50] → 0
	// 100 features; same score after reload: true
}
