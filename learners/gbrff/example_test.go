package gbrff_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/internal/exampledata"
)

func ExampleFit() {
	// Two interleaved half-moons, 400 rows to learn from and 1000 to test.
	X, y := exampledata.Matrix(synth.Moons(400, 0.1, 1))
	test, _ := synth.Moons(1000, 0.1, 2)
	m, err := gbrff.Fit(context.Background(), X, y, gbrff.Config{T: 50, Seed: 1})
	if err != nil {
		panic(err)
	}
	// exampledata.Accuracy scores m.PredictBatch on the test rows.
	fmt.Printf("rounds %d, test accuracy above 95%%: %v\n", m.Rounds(), exampledata.Accuracy(m, test) > 0.95)
	// Output: rounds 50, test accuracy above 95%: true
}
