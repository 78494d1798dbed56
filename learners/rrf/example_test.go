package rrf_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/rrf"
)

func ExampleLearner() {
	// A stream of 4-input rows whose label is +1 inside a disc in the first
	// two inputs and −1 outside; inputs 3 and 4 are noise.
	r := rand.New(rand.NewPCG(1, 9))
	l, err := rrf.NewLearner(4, rrf.Config{Eta: 0.002, EtaGamma: 0.01, Seed: 3})
	if err != nil {
		panic(err)
	}
	x := make([]float64, 4)
	for range 6000 {
		for j := range x {
			x[j] = r.NormFloat64()
		}
		y := -1.0
		if x[0]*x[0]+x[1]*x[1] < 1.2 {
			y = 1
		}
		if _, err := l.Update(x, y); err != nil {
			panic(err)
		}
	}
	m := l.Snapshot() // immutable: hand it to concurrent readers
	w := m.Importance()
	fmt.Println(l.Stats().MistakeRate() < 0.15, m.Predict([]float64{0, 0, 0, 0}), w[0] > w[3] && w[1] > w[2])
	// Output: true 1 true
}

func ExampleFit() {
	// 3000 rows of 2 inputs, labelled +1 inside a disc and −1 outside.
	const n, d = 3000, 2
	r := rand.New(rand.NewPCG(3, 9))
	X, y := make([]float64, n*d), make([]float64, n)
	for i := range y {
		X[i*d], X[i*d+1] = r.NormFloat64(), r.NormFloat64()
		y[i] = -1
		if X[i*d]*X[i*d]+X[i*d+1]*X[i*d+1] < 1.2 {
			y[i] = 1
		}
	}
	m, err := rrf.Fit(context.Background(), featmap.Dense(n, d, X), y, rrf.Config{Eta: 0.002, Epochs: 5, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Predict([]float64{0.1, -0.2}), m.Predict([]float64{2, 1.5}))
	// Output: 1 -1
}
