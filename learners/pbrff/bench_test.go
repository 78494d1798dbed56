package pbrff

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/featmap"
)

// gaussianSet is n rows of d standard normal inputs, labelled by the sign
// of a smooth nonlinear function of the first two.
func gaussianSet(n, d int) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(1, 2))
	X, y := make([]float64, n*d), make([]float64, n)
	for i := range y {
		for k := 0; k < d; k++ {
			X[i*d+k] = r.NormFloat64()
		}
		y[i] = -1
		if X[i*d]*X[i*d+1] > 0 {
			y[i] = 1
		}
	}
	return featmap.Dense(n, d, X), y
}

// BenchmarkFit: the defaults (100 landmarks × 10 frequencies, hinge SVM,
// C = 1) on d = 20.
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		X, y := gaussianSet(n, 20)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Fit(context.Background(), X, y, Config{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPredict: one row, d = 20, the default 1000-term expansion.
func BenchmarkPredict(b *testing.B) {
	X, y := gaussianSet(500, 20)
	m, err := Fit(context.Background(), X, y, Config{MaxEpochs: 50})
	if err != nil {
		b.Fatal(err)
	}
	x := X.Row(7)
	b.ReportAllocs()
	var sink float64
	for b.Loop() {
		sink += m.Predict(x)
	}
	_ = sink
}
