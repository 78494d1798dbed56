package gramerr

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/featmap"
)

// identity is a Transformer whose features are the inputs themselves.
type identity struct{ d int }

func (m identity) Outputs() int { return m.d }

func (m identity) Transform(dst, X featmap.Matrix) error {
	for i := range X.Rows {
		copy(dst.Row(i), X.Row(i))
	}
	return nil
}

// TestErrorMatchesDirectSum checks Error against the squared Frobenius
// distance summed directly in float64 over the full N×N matrix, with
// K from KernelRows checked against exp(−γ‖x_i − x_l‖²) on the way.
func TestErrorMatchesDirectSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][2]int{{1, 1}, {7, 3}, {40, 17}, {65, 33}, {200, 9}} {
		n, d := sh[0], sh[1]
		x := make([]float64, n*d)
		for i := range x {
			x[i] = rng.NormFloat64() / math.Sqrt(float64(d))
		}
		X := featmap.Dense(n, d, x)
		const gamma = 0.7
		K := KernelRows(X, gamma)
		var want float64
		for i := range n {
			for l := range n {
				var dist, dot float64
				for k := range d {
					t := x[i*d+k] - x[l*d+k]
					dist += t * t
					dot += x[i*d+k] * x[l*d+k]
				}
				kil := math.Exp(-gamma * dist)
				if a, b := min(i, l), max(i, l); math.Abs(K[a][b-a]-kil) > 1e-15 {
					t.Fatalf("n=%d d=%d: K[%d][%d] = %g, want %g", n, d, a, b, K[a][b-a], kil)
				}
				want += (kil - dot) * (kil - dot)
			}
		}
		want /= float64(n * n)
		got, err := Error(K, X, identity{d})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("n=%d d=%d: Error = %.17g, want %.17g", n, d, got, want)
		}
	}
}
