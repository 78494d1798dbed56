package gbrff_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/metrics"
)

func ExampleFit() {
	// Two interleaved half-moons, 400 rows to learn from and 1000 to test.
	set, err := synth.Moons(400, 0.1, 1)
	if err != nil {
		panic(err)
	}
	X, y := featmap.Dense(set.N, set.D, set.X), set.Y
	test, _ := synth.Moons(1000, 0.1, 2)
	m, err := gbrff.Fit(context.Background(), X, y, gbrff.Config{T: 50, Seed: 1})
	if err != nil {
		panic(err)
	}
	pred := make([]float64, test.N)
	if err := m.PredictBatch(pred, featmap.Dense(test.N, test.D, test.X)); err != nil {
		panic(err)
	}
	acc, err := metrics.Accuracy(test.Y, pred, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("rounds %d, test accuracy above 95%%: %v\n", m.Rounds(), acc > 0.95)
	// Output: rounds 50, test accuracy above 95%: true
}
