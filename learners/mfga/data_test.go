package mfga_test

import (
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
)

// poly draws y = x₁x₂ + sin(x₃) + N(0, 0.1²) with x ~ N(0, I₄) (x₄ is
// noise): a target close to the span of the degree-2 dictionary.
func poly(n int, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	X := make([]float64, 4*n)
	y := make([]float64, n)
	for i := range y {
		for k := 0; k < 4; k++ {
			X[4*i+k] = r.NormFloat64()
		}
		y[i] = float64(X[4*i]*X[4*i+1]) + math.Sin(X[4*i+2]) + float64(0.1*r.NormFloat64()) // see rings
	}
	return featmap.Dense(n, 4, X), y
}

// xor draws x ~ N(0, I₃) with the label sign(x₁x₂) (x₃ is noise): odd in
// both x₁ and x₂, which no feature of the degree-1 dictionary is.
func xor(n int, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 5))
	X := make([]float64, 3*n)
	y := make([]float64, n)
	for i := range y {
		for k := 0; k < 3; k++ {
			X[3*i+k] = r.NormFloat64()
		}
		y[i] = -1
		if X[3*i]*X[3*i+1] > 0 {
			y[i] = 1
		}
	}
	return featmap.Dense(n, 3, X), y
}
