package featmap_test

import (
	"fmt"

	"github.com/rfkit/rfkit/featmap"
)

// ExampleRFF maps rows into Gaussian random Fourier features; their inner
// products approximate exp(−γ‖x−y‖²).
func ExampleRFF() {
	m, err := featmap.NewRFF(featmap.RFFConfig{Inputs: 2, Features: 4096, Gamma: 0.5, Seed: 1})
	if err != nil {
		panic(err)
	}
	X := featmap.Dense(2, 2, []float64{0, 0, 1, 0}) // two points, distance 1
	Z := featmap.Dense(2, m.Outputs(), make([]float64, 2*m.Outputs()))
	if err := m.Transform(Z, X); err != nil {
		panic(err)
	}
	var k float64
	for j, z := range Z.Row(0) {
		k += z * Z.Row(1)[j]
	}
	fmt.Printf("approx %.1f, exact exp(-0.5) = 0.6\n", k)
	// Output: approx 0.6, exact exp(-0.5) = 0.6
}
