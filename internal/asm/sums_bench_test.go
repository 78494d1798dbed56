package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rfkit/rfkit/internal/cputime"
)

// The GBRFF2 shapes of the issue: n = 100000 samples, d = 20 inputs, one
// core (the multi-core split lives in package exploss). Each benchmark runs
// every path and the plain-Go formula loop in the same run.

func benchSums(b *testing.B, n int, kernel func(), plain func()) {
	for _, p := range Paths() {
		b.Run("path="+p, func(b *testing.B) {
			defer mustPath(b, p)()
			cpu := cputime.Process()
			best := time.Duration(math.MaxInt64)
			for b.Loop() {
				t0 := time.Now()
				kernel()
				best = min(best, time.Since(t0))
			}
			// The fastest iteration: the one least disturbed by the other
			// jobs of a shared machine.
			b.ReportMetric(float64(best.Nanoseconds())/float64(n), "min-ns/elem")
			b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/elem")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
		})
	}
	b.Run("path=plainGo", func(b *testing.B) {
		for b.Loop() {
			plain()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
	})
}

func BenchmarkPhaseSums(b *testing.B) {
	const n = 100000
	r := rand.New(rand.NewPCG(1, 2))
	c, s, yt := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range c {
		p := r.NormFloat64() * 3
		c[i], s[i], yt[i] = math.Cos(p), math.Sin(p), r.NormFloat64()
	}
	const bb = 0.7
	var sink float64
	benchSums(b, n, func() {
		var acc [2][8]float64
		PhaseSums(c, s, yt, math.Cos(bb), math.Sin(bb), &acc)
		sink += acc[0][0]
	}, func() {
		var f, df float64
		for i := range c {
			t := c[i]*math.Cos(bb) + s[i]*math.Sin(bb)
			e := math.Exp(-yt[i] * t)
			f += e
			df += e * yt[i] * (s[i]*math.Cos(bb) - c[i]*math.Sin(bb))
		}
		sink += f + df
	})
}

func BenchmarkFreqStepSums(b *testing.B) {
	for _, sh := range [][2]int{{100000, 20}, {2000, 20}, {100000, 1}} {
		n, d := sh[0], sh[1]
		r := rand.New(rand.NewPCG(1, 2))
		xt, yt, omega := make([]float64, n*d), make([]float64, n), make([]float64, d)
		for i := range xt {
			xt[i] = r.NormFloat64()
		}
		for i := range yt {
			yt[i] = r.NormFloat64()
		}
		for k := range omega {
			omega[k] = r.NormFloat64() / math.Sqrt(float64(d))
		}
		accX := make([][8]float64, d)
		proj := make([]float64, n)
		g := make([]float64, d)
		const bb = 0.7
		b.Run(fmt.Sprintf("n=%d/d=%d", n, d), func(b *testing.B) {
			benchSums(b, n, func() {
				var acc [8]float64
				clear(accX)
				FreqStepSums(proj, yt, xt, n, omega, bb, &acc, accX)
			}, func() {
				// row-major would be the natural plain layout; the same
				// column-major data keeps the comparison about arithmetic.
				clear(g)
				var loss float64
				for i := 0; i < n; i++ {
					var p float64
					for k := range omega {
						p += omega[k] * xt[k*n+i]
					}
					e := math.Exp(-yt[i] * math.Cos(p-bb))
					loss += e
					rr := yt[i] * math.Sin(p-bb) * e
					for k := range g {
						g[k] += rr * xt[k*n+i]
					}
				}
				_ = loss
			})
		})
	}
}

// BenchmarkFreqStepSumsPanels: FreqStepSumsPanels (x=float64) and
// FreqStepSumsPanels32 (x=float32) over panelled data (the
// layout of exploss.Data on AVX-512), in chunks of 4096 elements as
// exploss sweeps them, at a size that stays in cache (n = 2048) and one
// that does not (n = 100000, 16 MB of X). cpu-ns/elem is CPU time: the
// machine is shared.
func BenchmarkFreqStepSumsPanels(b *testing.B) {
	for _, sh := range [][2]int{{2048, 20}, {100000, 20}} {
		n, d := sh[0], sh[1]
		r := rand.New(rand.NewPCG(1, 2))
		xp, yt, omega := make([]float64, ((n+63)/64)*64*d), make([]float64, n), make([]float64, d)
		for i := range xp {
			xp[i] = r.NormFloat64()
		}
		for i := range yt {
			yt[i] = r.NormFloat64()
		}
		for k := range omega {
			omega[k] = r.NormFloat64() / math.Sqrt(float64(d))
		}
		xp32 := make([]float32, len(xp))
		for i, v := range xp {
			xp32[i] = float32(v)
		}
		accX := make([][8]float64, d)
		proj := make([]float64, n)
		b.Run(fmt.Sprintf("n=%d/d=%d/x=float64", n, d), func(b *testing.B) {
			benchSums(b, n, func() {
				var acc [8]float64
				clear(accX)
				for lo := 0; lo < n; lo += 4096 {
					hi := min(lo+4096, n)
					FreqStepSumsPanels(proj[lo:hi], yt[lo:hi], xp[lo*d:], omega, 0.7, &acc, accX)
				}
			}, func() {})
		})
		b.Run(fmt.Sprintf("n=%d/d=%d/x=float32", n, d), func(b *testing.B) {
			benchSums(b, n, func() {
				var acc [8]float64
				clear(accX)
				for lo := 0; lo < n; lo += 4096 {
					hi := min(lo+4096, n)
					FreqStepSumsPanels32(proj[lo:hi], yt[lo:hi], xp32[lo*d:], omega, 0.7, &acc, accX)
				}
			}, func() {})
		})
	}
}

// BenchmarkCosSum is one row of the GBRFF2 predict epilogue: D terms (the
// padded T), d inputs, on every path; it reports the CPU time of one call.
func BenchmarkCosSum(b *testing.B) {
	for _, sh := range []struct{ D, d int }{{64, 20}, {104, 20}, {128, 20}, {128, 1}} {
		r := rand.New(rand.NewPCG(3, uint64(sh.D)))
		x, w := make([]float64, sh.d), make([]float64, sh.d*sh.D)
		bb, a := make([]float64, sh.D), make([]float64, sh.D)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		for i := range w {
			w[i] = r.NormFloat64()
		}
		for j := range bb {
			bb[j], a[j] = r.Float64()*2*math.Pi, r.NormFloat64()
		}
		for _, p := range Paths() {
			b.Run(fmt.Sprintf("D=%d/d=%d/path=%s", sh.D, sh.d, p), func(b *testing.B) {
				defer mustPath(b, p)()
				var sink float64
				cpu := cputime.Process()
				for b.Loop() {
					sink += CosSum(x, w, sh.D, bb, a)
				}
				b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
				if math.IsNaN(sink) {
					b.Fatal("NaN")
				}
			})
		}
	}
}
