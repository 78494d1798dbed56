package pbrff_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/learners/internal/exampledata"
	"github.com/rfkit/rfkit/learners/pbrff"
)

func ExampleFit() {
	// Four concentric rings of alternating classes: no linear rule does
	// better than chance.
	X, y := exampledata.Matrix(synth.Circles(500, 0.1, 1))
	test, _ := synth.Circles(1000, 0.1, 2)
	m, err := pbrff.Fit(context.Background(), X, y, pbrff.Config{Gamma: 4, Seed: 1})
	if err != nil {
		panic(err)
	}
	c := m.Config()
	acc := exampledata.Accuracy(m, test) // m.PredictBatch on the test rows
	fmt.Printf("%d landmarks × %d frequencies, test accuracy above 95%%: %v\n", c.Landmarks, c.K, acc > 0.95)

	// The model file stores the landmarks, frequencies and weights: a
	// reloaded model (pbrff.Load of m.MarshalBinary()) scores exactly as
	// the original.
	fmt.Println("same score after reload:", exampledata.SameScoreAfterReload(m, pbrff.Load, []float64{0.3, -2.1}))
	// Output:
	// 100 landmarks × 10 frequencies, test accuracy above 95%: true
	// same score after reload: true
}
