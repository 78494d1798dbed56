package pbrff_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/pbrff"
	"github.com/rfkit/rfkit/metrics"
)

func ExampleFit() {
	// Four concentric rings of alternating classes: no linear rule does
	// better than chance.
	set, err := synth.Circles(500, 0.1, 1)
	if err != nil {
		panic(err)
	}
	X, y := featmap.Dense(set.N, set.D, set.X), set.Y
	test, _ := synth.Circles(1000, 0.1, 2)
	m, err := pbrff.Fit(context.Background(), X, y, pbrff.Config{Gamma: 4, Seed: 1})
	if err != nil {
		panic(err)
	}
	c := m.Config()
	pred := make([]float64, test.N)
	if err := m.PredictBatch(pred, featmap.Dense(test.N, test.D, test.X)); err != nil {
		panic(err)
	}
	acc, err := metrics.Accuracy(test.Y, pred, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d landmarks × %d frequencies, test accuracy above 95%%: %v\n", c.Landmarks, c.K, acc > 0.95)

	// The model file stores the landmarks, frequencies and weights: a
	// reloaded model (pbrff.Load of m.MarshalBinary()) scores exactly as
	// the original.
	data, err := m.MarshalBinary()
	if err != nil {
		panic(err)
	}
	m2, err := pbrff.Load(data)
	if err != nil {
		panic(err)
	}
	x := []float64{0.3, -2.1}
	fmt.Println("same score after reload:", m2.Score(x) == m.Score(x))
	// Output:
	// 100 landmarks × 10 frequencies, test accuracy above 95%: true
	// same score after reload: true
}
