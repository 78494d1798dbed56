package prff_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/datasets/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/prff"
)

func ExampleFit() {
	// XOR: the label is 1 when x₁ and x₂ have the same sign, else 0, a
	// problem no linear classifier solves.
	r := rand.New(rand.NewPCG(1, 2))
	const n = 400
	X, y := make([]float64, 2*n), make([]float64, n)
	for i := range y {
		a, b := 2*r.Float64()-1, 2*r.Float64()-1
		X[2*i], X[2*i+1] = a, b
		if a*b > 0 {
			y[i] = 1
		}
	}
	m, err := prff.Fit(context.Background(), featmap.Dense(n, 2, X), y, prff.Config{Seed: 1})
	if err != nil {
		panic(err)
	}
	for _, x := range [][]float64{{0.5, 0.5}, {-0.5, 0.5}, {-0.5, -0.5}, {0.5, -0.5}} {
		fmt.Printf("%5.2f → %v\n", x, m.Predict(x))
	}

	// The model file stores the sampled features: a reloaded model predicts
	// exactly as the original.
	data, err := m.MarshalBinary()
	if err != nil {
		panic(err)
	}
	m2, err := prff.Load(data)
	if err != nil {
		panic(err)
	}
	x := []float64{0.3, -0.8}
	fmt.Println(m.Config().Features, "features; same score after reload:", m2.Score(x) == m.Score(x))
	// Output:
	// [ 0.50  0.50] → 1
	// [-0.50  0.50] → 0
	// [-0.50 -0.50] → 1
	// [ 0.50 -0.50] → 0
	// 50 features; same score after reload: true
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
	Z := make([]float64, s.N*m.Features())
	if err := m.RFF().Transform(featmap.Dense(s.N, m.Features(), Z), X); err != nil {
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
	fmt.Println(p.Features(), "features in the prefix")
	// Output:
	// Gram error: PRFF below RFF: true
	// 10 features in the prefix
}
