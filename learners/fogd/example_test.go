package fogd_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/rfkit/rfkit/learners/fogd"
)

func ExampleLearner() {
	// A stream of 2-input rows labelled +1 inside a disc and −1 outside.
	r := rand.New(rand.NewPCG(1, 9))
	l, err := fogd.NewLearner(2, fogd.Config{Eta: 0.5, Seed: 1})
	if err != nil {
		panic(err)
	}
	for range 4000 {
		x := []float64{r.NormFloat64(), r.NormFloat64()}
		y := -1.0
		if x[0]*x[0]+x[1]*x[1] < 1.2 {
			y = 1
		}
		if _, err := l.Update(x, y); err != nil {
			panic(err)
		}
	}
	m := l.Snapshot() // averaged weights, safe for concurrent readers
	fmt.Println(m.Predict([]float64{0, 0}), m.Predict([]float64{-1.5, 1}), l.Stats().MistakeRate() < 0.15)
	// Output: 1 -1 true
}
