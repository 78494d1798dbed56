package rrf_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/rrf"
)

// A service learns a stream, saves its model, restarts and goes on
// learning from the saved file: the model carries the learner's whole
// state and its input standardisation, so no scaler is kept on the side.
func ExampleResume() {
	// Rows around (100, −50) with spreads 20 and 5; the label says whether
	// the standardised row is within 1.2 of the centre.
	r := rand.New(rand.NewPCG(1, 2))
	row := func() ([]float64, float64) {
		a, b := r.NormFloat64(), r.NormFloat64()
		y := -1.0
		if a*a+b*b < 1.2 {
			y = 1
		}
		return []float64{100 + 20*a, -50 + 5*b}, y
	}
	prefix := make([]float64, 0, 2*200)
	for range 200 {
		x, _ := row()
		prefix = append(prefix, x...)
	}

	l, err := rrf.NewLearner(2, rrf.Config{Eta: 0.01, Seed: 3})
	if err != nil {
		panic(err)
	}
	// Standardise with the statistics of a prefix of the stream.
	if err := l.StandardizeFrom(featmap.Dense(200, 2, prefix)); err != nil {
		panic(err)
	}
	for range 3000 {
		x, y := row()
		if _, err := l.Update(x, y); err != nil {
			panic(err)
		}
	}
	saved, err := l.Snapshot().MarshalBinary() // write it to a file
	if err != nil {
		panic(err)
	}

	// After the restart: load the file and resume.
	m, err := rrf.Load(saved)
	if err != nil {
		panic(err)
	}
	l, err = rrf.Resume(m)
	if err != nil {
		panic(err)
	}
	for range 3000 {
		x, y := row()
		if _, err := l.Update(x, y); err != nil {
			panic(err)
		}
	}
	final := l.Snapshot()
	// Raw rows in, labels out: the centre, and a row 3 spreads away.
	fmt.Println(final.Predict([]float64{100, -50}), final.Predict([]float64{160, -50}), l.Stats().MistakeRate() < 0.15)
	// Output: 1 -1 true
}
