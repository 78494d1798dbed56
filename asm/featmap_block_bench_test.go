package asm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/cputime"
)

// BenchmarkCosAffineRows maps n rows of d inputs to D features on the
// calling goroutine, "kernel=rows" being CosAffine on each row (the one-row
// kernel: one W load per FMA) and "kernel=blocked" CosAffineRows with the
// register-blocked kernel, side by side in one run; the three shapes
// plus the d between them that set affineMinD, and d = 0, the cosine pass
// alone. GFLOP/s counts the 2·n·d·D
// of the dot products; floor-ms adds n·D cosines at 0.645 ns to those flops
// at 108 GFLOP/s.
func BenchmarkCosAffineRows(b *testing.B) {
	shapes := []struct{ n, d, D int }{
		{10000, 10, 1000}, {10000, 100, 1000}, {50000, 18, 300},
		{10000, 4, 1000}, {10000, 24, 1000}, {10000, 32, 1000}, {10000, 50, 1000},
		{10000, 0, 1000}, // the cosines alone: the floor's second term, measured
	}
	defer func(v int) { affineMinD = v }(affineMinD)
	for _, sh := range shapes {
		r := rand.New(rand.NewPCG(1, 1))
		X := make([]float64, sh.n*sh.d)
		for i := range X {
			X[i] = r.NormFloat64()
		}
		_, w, bias := randAffine(r, sh.d, sh.D, sh.D, 0)
		a := NewAffinePanels(w, sh.d, sh.D, sh.D)
		Z := make([]float64, sh.n*sh.D)
		flops := 2 * float64(sh.n*sh.d*sh.D)
		floor := flops/108e9*1e3 + float64(sh.n*sh.D)*0.645e-6
		for _, p := range Paths() {
			for _, kernel := range []string{"rows", "blocked"} {
				b.Run(fmt.Sprintf("n=%d/d=%d/D=%d/path=%s/kernel=%s", sh.n, sh.d, sh.D, p, kernel), func(b *testing.B) {
					restore, _ := SetPath(p)
					defer restore()
					affineMinD = 1
					if kernel == "rows" {
						affineMinD = 1 << 30
					}
					CosAffineRows(Z, sh.D, X, sh.d, sh.n, a, bias, 1) // warm-up: page faults
					cpu0 := cputime.Process().Seconds()
					for b.Loop() {
						CosAffineRows(Z, sh.D, X, sh.d, sh.n, a, bias, 1)
					}
					b.ReportMetric((cputime.Process().Seconds()-cpu0)/float64(b.N)*1e3, "cpu-ms/op")
					sec := b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(sec*1e3, "ms/op")
					b.ReportMetric(flops/sec/1e9, "GFLOP/s")
					b.ReportMetric(floor, "floor-ms")
				})
			}
		}
	}
}
