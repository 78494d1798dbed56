package prff_test

import (
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/featmap"
)

// rings draws n points of two concentric noisy rings in the plane (radius 1
// → label lo, radius 2 → label hi, noise σ = 0.15 on the radius), plus
// extra pure-noise inputs. No linear function of the inputs separates them.
func rings(n, extra int, lo, hi float64, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	d := 2 + extra
	X := make([]float64, n*d)
	y := make([]float64, n)
	for i := range y {
		rad, lab := 1.0, lo
		if i%2 == 1 {
			rad, lab = 2.0, hi
		}
		// A uniform direction without math.Cos, whose last bit may differ
		// between architectures; float64() forbids FMA fusion. So the data
		// are the same bits everywhere.
		rad += float64(0.15 * r.NormFloat64())
		g1, g2 := r.NormFloat64(), r.NormFloat64()
		s := rad / math.Sqrt(float64(g1*g1)+float64(g2*g2))
		X[i*d], X[i*d+1] = s*g1, s*g2
		for k := 2; k < d; k++ {
			X[i*d+k] = r.NormFloat64()
		}
		y[i] = lab
	}
	return featmap.Dense(n, d, X), y
}

// sine draws y = sin(2·x1) + 0.5·x2² + N(0, 0.1²) with x ~ U[−2, 2]².
func sine(n int, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 2))
	X := make([]float64, 2*n)
	y := make([]float64, n)
	for i := range y {
		a, b := float64(4*r.Float64())-2, float64(4*r.Float64())-2
		X[2*i], X[2*i+1] = a, b
		y[i] = math.Sin(2*a) + float64(float64(0.5*b)*b) + float64(0.1*r.NormFloat64()) // see rings
	}
	return featmap.Dense(n, 2, X), y
}
