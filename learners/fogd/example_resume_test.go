package fogd_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/fogd"
)

// A nightly job fits a model on the day's rows, saves it, and the next
// night continues from the saved file with Config.Resume instead of
// refitting on everything: the model carries the learner's state, its
// labels and its input standardisation, so the new rows need no scaler on
// the side. (For a stream learned row by row, see Resume.)
func ExampleConfig_resume() {
	// Rows around (100, −50) with spreads 20 and 5, labelled 0 inside
	// the ellipse of standardised radius √1.2, 1 outside.
	r := rand.New(rand.NewPCG(1, 2))
	day := func(n int) (featmap.Matrix, []float64) {
		X, y := featmap.Dense(n, 2, make([]float64, 2*n)), make([]float64, n)
		for i := range n {
			a, b := r.NormFloat64(), r.NormFloat64()
			X.Data[2*i], X.Data[2*i+1] = 100+20*a, -50+5*b
			if a*a+b*b >= 1.2 {
				y[i] = 1
			}
		}
		return X, y
	}
	X, y := day(3000)
	m, err := fogd.Fit(context.Background(), X, y, fogd.Config{Eta: 0.5, Seed: 3})
	if err != nil {
		panic(err)
	}
	saved, err := m.MarshalBinary() // write it to a file
	if err != nil {
		panic(err)
	}

	// The next night: load the file and go on with the new rows.
	old, err := fogd.Load(saved)
	if err != nil {
		panic(err)
	}
	cfg := old.Config()
	cfg.Resume = old
	X, y = day(3000)
	m, err = fogd.Fit(context.Background(), X, y, cfg)
	if err != nil {
		panic(err)
	}
	// Raw rows in, labels out: the centre, and a row 3 spreads away.
	fmt.Println(m.Predict([]float64{100, -50}), m.Predict([]float64{160, -50}), m.Labels())
	// Output: 0 1 {0 1}
}
