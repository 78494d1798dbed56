package rfselect_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/rfselect"
)

func ExampleFit() {
	// Two interleaved half-moons: keep 30 of 600 candidate features, chosen
	// by their energy on the labels (EERF) or sampled from kernel-alignment
	// weights (LKRF).
	set, err := synth.Moons(400, 0.1, 1)
	if err != nil {
		panic(err)
	}
	X, y := featmap.Dense(set.N, set.D, set.X), set.Y
	for _, sel := range []rfselect.Selection{rfselect.EERFSelection, rfselect.LKRFSelection} {
		m, err := rfselect.Fit(context.Background(), X, y, rfselect.Config{Selection: sel, Features: 30, Seed: 1})
		if err != nil {
			panic(err)
		}
		c := m.Config()
		fmt.Printf("%s: %d of %d candidates; (0, 1) → %v, (1, -0.5) → %v\n", sel, c.Features, c.Candidates,
			m.Predict([]float64{0, 1}), m.Predict([]float64{1, -0.5}))
	}
	// Output:
	// eerf: 30 of 600 candidates; (0, 1) → -1, (1, -0.5) → 1
	// lkrf: 30 of 600 candidates; (0, 1) → -1, (1, -0.5) → 1
}
