package gbrff_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/gbrff"
)

func ExampleFit() {
	train, _ := synth.Moons(400, 0.1, 1)
	test, _ := synth.Moons(1000, 0.1, 2)
	m, err := gbrff.Fit(context.Background(), featmap.Dense(train.N, train.D, train.X), train.Y, gbrff.Config{T: 50, Seed: 1})
	if err != nil {
		panic(err)
	}
	pred := make([]float64, test.N)
	if err := m.PredictBatch(pred, featmap.Dense(test.N, test.D, test.X)); err != nil {
		panic(err)
	}
	ok := 0
	for i, p := range pred {
		if p == test.Y[i] {
			ok++
		}
	}
	fmt.Printf("rounds %d, test accuracy above 95%%: %v\n", m.Rounds(), float64(ok)/float64(test.N) > 0.95)
	// Output: rounds 50, test accuracy above 95%: true
}
