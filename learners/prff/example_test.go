package prff_test

import (
	"context"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/prff"
)

func ExampleFit() {
	// Two interleaved half-moons: 20 features learned to fit the Gram
	// matrix, then logistic regression on them.
	set, err := synth.Moons(400, 0.1, 1)
	if err != nil {
		panic(err)
	}
	X, y := featmap.Dense(set.N, set.D, set.X), set.Y
	m, err := prff.Fit(context.Background(), X, y, prff.Config{Features: 20, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("(0, 1) → %v, (1, -0.5) → %v\n", m.Predict([]float64{0, 1}), m.Predict([]float64{1, -0.5}))
	// The model keeps the learned map (on standardised inputs) and γ.
	fmt.Println(m.Map().RFF().Outputs(), "learned features, γ > 0:", m.Map().Gamma() > 0)
	// Output:
	// (0, 1) → -1, (1, -0.5) → 1
	// 20 learned features, γ > 0: true
}

func ExampleLearn() {
	// 500 points of N(0, I₁₀), the paper's Gram-approximation setting.
	s, err := synth.Gaussian(500, 10, 1)
	if err != nil {
		panic(err)
	}
	X := featmap.Dense(s.N, s.D, s.X)
	m, err := prff.Learn(context.Background(), X, prff.Config{Features: 20, Seed: 1})
	if err != nil {
		panic(err)
	}
	// The learned map is a featmap transform: 20 features per row.
	Z := make([]float64, s.N*m.RFF().Outputs())
	if err := m.RFF().Transform(featmap.Dense(s.N, m.RFF().Outputs(), Z), X); err != nil {
		panic(err)
	}
	// Z·Zᵀ approximates the Gram matrix of exp(−γ‖x−x'‖²) better than
	// plain random Fourier features with the same γ and D.
	r, _ := featmap.NewRFF(featmap.RFFConfig{Inputs: 10, Features: 20, Gamma: m.Gamma(), Seed: 1})
	R := make([]float64, s.N*20)
	_ = r.Transform(featmap.Dense(s.N, 20, R), X)
	var ep, er float64
	for i := 0; i < s.N; i++ {
		for l := 0; l < s.N; l++ {
			var dist, zp, zr float64
			for k := 0; k < 10; k++ {
				dist += (X.Row(i)[k] - X.Row(l)[k]) * (X.Row(i)[k] - X.Row(l)[k])
			}
			for j := 0; j < 20; j++ {
				zp += Z[i*20+j] * Z[l*20+j]
				zr += R[i*20+j] * R[l*20+j]
			}
			k := math.Exp(-m.Gamma() * dist)
			ep += (k - zp) * (k - zp)
			er += (k - zr) * (k - zr)
		}
	}
	fmt.Printf("Gram error: PRFF below RFF: %v\n", ep < er)
	// Features are learned greedily: the first 10 are the 10-feature map.
	p, _ := m.Prefix(10)
	fmt.Println(p.RFF().Outputs(), "features in the prefix")
	// Output:
	// Gram error: PRFF below RFF: true
	// 10 features in the prefix
}
