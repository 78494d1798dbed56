package rrf_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/rrf"
)

func ExampleLearner() {
	// A stream of 4-input rows whose label depends on the first two only.
	X, y := rings(6000, 4, 1)
	l, err := rrf.NewLearner(4, rrf.Config{Eta: 0.002, EtaGamma: 0.01, Seed: 3})
	if err != nil {
		panic(err)
	}
	for i := range y {
		if _, err := l.Update(X[4*i:4*i+4], y[i]); err != nil {
			panic(err)
		}
	}
	m := l.Snapshot() // immutable: hand it to concurrent readers
	w := m.Importance()
	fmt.Println(l.Stats().MistakeRate() < 0.15, m.Predict([]float64{0, 0, 0, 0}), w[0] > w[3] && w[1] > w[2])
	// Output: true 1 true
}

func ExampleFit() {
	X, y := rings(3000, 2, 3)
	m, err := rrf.Fit(context.Background(), featmap.Dense(3000, 2, X), y, rrf.Config{Eta: 0.002, Epochs: 5, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Predict([]float64{0.1, -0.2}), m.Predict([]float64{2, 1.5}))
	// Output: 1 -1
}
