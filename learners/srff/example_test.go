package srff_test

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/srff"
)

// ExampleFit learns which of SE1's 18 inputs matter.
func ExampleFit() {
	s, err := synth.ByName("se1", 200, 1)
	if err != nil {
		panic(err)
	}
	m, err := srff.Fit(context.Background(), featmap.Dense(s.N, s.D, s.X), s.Y,
		srff.Config{Features: 50, Lambda: 1e-3, MaxIterations: 5})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(m.Importance()), len(m.Ranked()))
	// Output: 18 18
}
