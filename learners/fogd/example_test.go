package fogd_test

import (
	"fmt"

	"github.com/rfkit/rfkit/learners/fogd"
)

func ExampleLearner() {
	X, y := rings(4000, 2, 1)
	l, err := fogd.NewLearner(2, fogd.Config{Eta: 0.5, Seed: 1})
	if err != nil {
		panic(err)
	}
	for i := range y {
		if _, err := l.Update(X[2*i:2*i+2], y[i]); err != nil {
			panic(err)
		}
	}
	m := l.Snapshot() // averaged weights, safe for concurrent readers
	fmt.Println(m.Predict([]float64{0, 0}), m.Predict([]float64{-1.5, 1}), l.Stats().MistakeRate() < 0.15)
	// Output: 1 -1 true
}
