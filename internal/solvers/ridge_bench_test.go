package solvers

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkRidge fits ridge regression on n×d Gaussian features: the cost
// of the blocked exact sums shows against the Gram matrix and the solve.
func BenchmarkRidge(b *testing.B) {
	for _, sz := range []struct{ n, d int }{{1000, 100}, {100000, 100}, {20000, 300}} {
		b.Run(fmt.Sprintf("n=%d/d=%d", sz.n, sz.d), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			X, y := make([]float64, sz.n*sz.d), make([]float64, sz.n)
			for i := range X {
				X[i] = r.NormFloat64()
			}
			for i := range y {
				y[i] = r.NormFloat64()
			}
			for b.Loop() {
				if _, _, err := Ridge(X, sz.n, sz.d, y, 1e-3, RidgeOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sz.n), "ns/row")
		})
	}
}
