package kernel_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/cputime"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/kernel"
)

// BenchmarkFit: one kernel-ridge Fit per op on m rows of 21 Gaussian
// inputs (cpu_act's d; m = 6554 is its 80 % training split) with
// y = sin(x₁) + x₂ (regression, λ = 1e-3, γ = 1/d), as
// BenchmarkFit/m=<m>; every leaf reports cpu-s/op (process CPU seconds per
// fit, steadier than s/op on a shared machine). Run it with -benchtime 1x
// and -cpu 1 for one core's figure; -short runs only m = 300.
func BenchmarkFit(b *testing.B) {
	sizes := []int{1000, 2000, 6554}
	if testing.Short() {
		sizes = []int{300}
	}
	for _, m := range sizes {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			const d = 21
			r := rand.New(rand.NewPCG(uint64(m), 3))
			x, y := make([]float64, m*d), make([]float64, m)
			for i := range y {
				for j := 0; j < d; j++ {
					x[i*d+j] = r.NormFloat64()
				}
				y[i] = math.Sin(x[i*d]) + x[i*d+1]
			}
			X := featmap.Dense(m, d, x)
			cfg := kernel.Config{Task: learners.Regression, Subsample: m}
			cpu0 := cputime.Process()
			for b.Loop() {
				if _, err := kernel.Fit(context.Background(), X, y, cfg); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1 := cputime.Process(); cpu0 > 0 && cpu1 > 0 {
				b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			}
		})
	}
}
