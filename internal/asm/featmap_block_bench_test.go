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

// BenchmarkAffineFloor measures, on the machine at hand, the two rates the
// feature map's floor is made of, so that a run on a machine other than the
// issue's (or a loaded one) gives its own floor for BenchmarkCosAffineRows:
// "part=fma" is the blocked kernel on one block of eight rows and one panel
// with everything in L1 (cpu-GFLOP/s: the FMA rate the product can reach),
// "part=cos" the cosine pass into one 1000-column row that stays in L1 and
// "part=cos-mem" the same pass into a 10000×1000 dst (cpu-ns/elem: without
// and with the cost of writing the features to memory). The floor of a shape
// is then 2·n·d·D / fma + n·D·cos (or cos-mem).
func BenchmarkAffineFloor(b *testing.B) {
	cpuRate := func(b *testing.B, per float64, unit string, f func()) {
		f() // warm-up: page faults
		c0 := cputime.Process().Seconds()
		for b.Loop() {
			f()
		}
		sec := (cputime.Process().Seconds() - c0) / float64(b.N)
		if unit == "cpu-GFLOP/s" {
			b.ReportMetric(per/sec/1e9, unit)
			return
		}
		b.ReportMetric(sec/per*1e9, unit)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range Paths() {
		restore, _ := SetPath(p)
		blocked := affineBlocked()
		restore()
		if blocked {
			for _, d := range []int{10, 18, 100} {
				x := benchInput(affineBlockRows*d, 1)
				pan := benchInput(d*affinePanel, 1)
				bias := benchInput(affinePanel, 1)
				t := make([]float64, affineBlockRows*affinePanel)
				b.Run(fmt.Sprintf("part=fma/d=%d/path=%s", d, p), func(b *testing.B) {
					defer func(f func()) { f() }(mustPath(b, p))
					cpuRate(b, 2*float64(1000*affineBlockRows*affinePanel*d), "cpu-GFLOP/s", func() {
						for i := 0; i < 1000; i++ {
							affineBlock(affineBlockRows, t, affinePanel, x, d, d, pan, bias, 1)
						}
					})
				})
			}
		}
		const n, D = 10000, 1000
		_, _, bias := randAffine(r, 0, D, D, 0)
		row := make([]float64, D)
		b.Run(fmt.Sprintf("part=cos/path=%s", p), func(b *testing.B) {
			defer func(f func()) { f() }(mustPath(b, p))
			cpuRate(b, n*D, "cpu-ns/elem", func() {
				for i := 0; i < n; i++ {
					cosAffine(row, nil, nil, bias, 0, 1)
				}
			})
		})
		Z := make([]float64, n*D)
		b.Run(fmt.Sprintf("part=cos-mem/path=%s", p), func(b *testing.B) {
			defer func(f func()) { f() }(mustPath(b, p))
			cpuRate(b, n*D, "cpu-ns/elem", func() {
				for i := 0; i < n; i++ {
					cosAffine(Z[i*D:(i+1)*D], nil, nil, bias, 0, 1)
				}
			})
		})
	}
}

// mustPath switches the kernels to path and returns the function that
// switches them back.
func mustPath(tb testing.TB, path string) func() {
	restore, err := SetPath(path)
	if err != nil {
		tb.Fatal(err)
	}
	return restore
}
