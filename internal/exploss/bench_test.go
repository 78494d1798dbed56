package exploss

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/rfkit/rfkit/internal/cputime"

	"github.com/rfkit/rfkit/internal/asm"
)

// BenchmarkFreqStepLayout: the same kernel over the same chunks, one
// goroutine, over three layouts of X: column-major (d streams n values
// apart, the layout before BlockLen), blocks of 512 samples with rows padded
// by a cache line (d short streams per block), and Data's panels of
// BlockLen samples (one stream), swept one call per panel (panel) or one
// asm.FreqStepSumsPanels call per chunk, as FreqStep does (panels). The
// differences are the cost of the layout alone (the panels suit AVX-512's
// blocked loop; the one-group loops of the other paths read them across
// their rows). cpu-ns/sample is CPU time and min-ns/sample the fastest
// iteration: the machine is shared.
func BenchmarkFreqStepLayout(b *testing.B) {
	for _, n := range []int{2048, 100000} {
		const d = 20
		p := newProblem(b, n, d, 1, 7)
		xt := make([]float64, n*d)
		for i := 0; i < n; i++ {
			for k := 0; k < d; k++ {
				xt[k*n+i] = p.x.At(i, k)
			}
		}
		const bw, bld = 512, 520
		nb := (n + bw - 1) / bw
		blocks := make([]float64, nb*bld*d)
		for i := 0; i < n; i++ {
			for k := 0; k < d; k++ {
				blocks[(i/bw)*bld*d+k*bld+i%bw] = p.x.At(i, k)
			}
		}
		panels := make([]float64, numBlocks(n)*BlockLen*d)
		for i := 0; i < n; i++ {
			for k := 0; k < d; k++ {
				panels[(i/BlockLen)*BlockLen*d+k*BlockLen+i%BlockLen] = p.x.At(i, k)
			}
		}
		var acc [8]float64
		accX := make([][8]float64, d)
		proj := make([]float64, n)
		for _, layout := range []string{"column", "block512", "panel", "panels"} {
			b.Run(fmt.Sprintf("n=%d/d=%d/layout=%s", n, d, layout), func(b *testing.B) {
				cpu := cputime.Process()
				best := time.Duration(math.MaxInt64)
				for b.Loop() {
					t0 := time.Now()
					for c := 0; c < numChunks(n); c++ {
						lo, hi := chunkRange(c, n)
						if layout == "column" {
							asm.FreqStepSums(proj[lo:hi], p.yt[lo:hi], xt[lo:], n, p.omega, 0.7, &acc, accX)
							continue
						}
						if layout == "block512" {
							for bl := lo; bl < hi; bl += bw {
								e := min(bl+bw, hi)
								asm.FreqStepSums(proj[bl:e], p.yt[bl:e], blocks[(bl/bw)*bld*d:], bld, p.omega, 0.7, &acc, accX)
							}
							continue
						}
						if layout == "panels" {
							asm.FreqStepSumsPanels(proj[lo:hi], p.yt[lo:hi], panels[(lo/BlockLen)*BlockLen*d:], p.omega, 0.7, &acc, accX)
							continue
						}
						for bl := lo; bl < hi; bl += BlockLen {
							e := min(bl+BlockLen, hi)
							asm.FreqStepSums(proj[bl:e], p.yt[bl:e], panels[(bl/BlockLen)*BlockLen*d:], BlockLen, p.omega, 0.7, &acc, accX)
						}
					}
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sample")
				b.ReportMetric(float64(best.Nanoseconds())/float64(n), "min-ns/sample")
				b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/sample")
			})
		}
	}
}

// BenchmarkSincos: Data.Sincos (s, c of ω·x for every sample, the sincos-dot
// sweep of a GBRFF2 round) at n = 10⁵, d = 20, one goroutine. min-ms/op is
// the fastest iteration (the least disturbed on a shared machine).
func BenchmarkSincos(b *testing.B) {
	const n, d = 100000, 20
	p := newProblem(b, n, d, 1, 7)
	p.x.SetThreads(1)
	s, c := make([]float64, n), make([]float64, n)
	best := time.Duration(math.MaxInt64)
	for b.Loop() {
		t0 := time.Now()
		if err := p.x.Sincos(s, c, p.omega); err != nil {
			b.Fatal(err)
		}
		best = min(best, time.Since(t0))
	}
	b.ReportMetric(float64(best.Nanoseconds())/1e6, "min-ms/op")
	b.ReportMetric(float64(best.Nanoseconds())/n, "min-ns/sample")
}

// BenchmarkSincosMany: the sines and cosines of X·ω for m = 8 frequencies,
// n = 10⁵, d = 20 (float32 panels on AVX-512), one goroutine: eight
// Data.Sincos sweeps (X read from memory eight times) against one
// Data.SincosMany (X read once, each 512-sample block re-read from cache),
// and asm.Sincos alone over eight stored n-vectors of projections (the trig
// work without any dot product) for scale. cpu-ns/sample-freq is CPU time
// per sample and frequency.
func BenchmarkSincosMany(b *testing.B) {
	const n, d, m = 100000, 20, 8
	p := newProblem(b, n, d, 1, 7)
	p.x.SetThreads(1)
	om := make([]float64, m*d)
	for i := range om {
		om[i] = p.omega[i%d] * float64(1+i/d)
	}
	s, c := make([]float64, m*n), make([]float64, m*n)
	proj := make([]float64, m*n)
	for i := range proj {
		proj[i] = float64(i%1000) * 0.01
	}
	for _, tc := range []struct {
		name string
		run  func()
	}{
		{"sweeps=8", func() {
			for j := 0; j < m; j++ {
				if err := p.x.Sincos(s[j*n:(j+1)*n], c[j*n:(j+1)*n], om[j*d:(j+1)*d]); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{"sweeps=1", func() {
			if err := p.x.SincosMany(s, c, om); err != nil {
				b.Fatal(err)
			}
		}},
		{"trig-only", func() { asm.Sincos(s, c, proj) }},
	} {
		b.Run("kind="+tc.name, func(b *testing.B) {
			cpu := cputime.Process()
			for b.Loop() {
				tc.run()
			}
			b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N)/(n*m), "cpu-ns/sample-freq")
		})
	}
}
