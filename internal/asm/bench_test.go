package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Benchmarks report ns/element for every path next to a loop over Go's math
// package in the same run, so ratios come from one run on one machine:
//
//	go test -run '^$' -bench . -count 6 ./asm | benchstat -

var benchSizes = []int{16, 4096, 1 << 22}

func benchInput(n int, scale float64) []float64 {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	x := make([]float64, n)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * scale
	}
	return x
}

func benchKernel(b *testing.B, scale float64, kernel func(d1, d2, x []float64), math1 func(float64) float64) {
	for _, n := range benchSizes {
		x := benchInput(n, scale)
		d1, d2 := make([]float64, n), make([]float64, n)
		for _, p := range Paths() {
			b.Run(fmt.Sprintf("path=%s/n=%d", p, n), func(b *testing.B) {
				defer mustPath(b, p)()
				b.SetBytes(int64(8 * n))
				for b.Loop() {
					kernel(d1, d2, x)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
		b.Run(fmt.Sprintf("path=math/n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n))
			for b.Loop() {
				for i, v := range x {
					d1[i] = math1(v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
		})
	}
}

func BenchmarkCos(b *testing.B) {
	benchKernel(b, 1000, func(d1, _, x []float64) { Cos(d1, x) }, math.Cos)
}

func BenchmarkSin(b *testing.B) {
	benchKernel(b, 1000, func(d1, _, x []float64) { Sin(d1, x) }, math.Sin)
}

func BenchmarkSincos(b *testing.B) {
	benchKernel(b, 1000, func(d1, d2, x []float64) { Sincos(d1, d2, x) },
		func(v float64) float64 { s, c := math.Sincos(v); return s + c })
}

func BenchmarkCosShift(b *testing.B) {
	benchKernel(b, 1000, func(d1, _, x []float64) { CosShift(d1, x, 0.5) },
		func(v float64) float64 { return math.Cos(v - 0.5) })
}

func BenchmarkExp(b *testing.B) {
	benchKernel(b, 50, func(d1, _, x []float64) { Exp(d1, x) }, math.Exp)
}

// BenchmarkCosAffine maps n rows of d inputs to D features (one CosAffine per
// row), the shapes of the featmap targets; "plain" is the formula with
// math.Cos in the same run. GFLOP/s counts the 2·n·d·D of the dot products.
func BenchmarkCosAffine(b *testing.B) {
	for _, sh := range []struct{ n, d, D int }{{10000, 10, 1000}, {10000, 100, 1000}, {50000, 18, 300}} {
		r := rand.New(rand.NewPCG(1, 1))
		X := make([]float64, sh.n*sh.d)
		for i := range X {
			X[i] = r.NormFloat64()
		}
		_, w, bias := randAffine(r, sh.d, sh.D, sh.D, 0)
		z := make([]float64, sh.D)
		report := func(b *testing.B) {
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(sec*1e3, "ms/op")
			b.ReportMetric(2*float64(sh.n*sh.d*sh.D)/sec/1e9, "GFLOP/s")
		}
		for _, p := range Paths() {
			b.Run(fmt.Sprintf("path=%s/n=%d/d=%d/D=%d", p, sh.n, sh.d, sh.D), func(b *testing.B) {
				restore, _ := SetPath(p)
				defer restore()
				for b.Loop() {
					for i := 0; i < sh.n; i++ {
						CosAffine(z, X[i*sh.d:(i+1)*sh.d], w, bias, sh.D, 1)
					}
				}
				report(b)
			})
		}
		b.Run(fmt.Sprintf("path=plain/n=%d/d=%d/D=%d", sh.n, sh.d, sh.D), func(b *testing.B) {
			for b.Loop() {
				for i := 0; i < sh.n; i++ {
					x := X[i*sh.d : (i+1)*sh.d]
					for j := range z {
						s := bias[j]
						for k, xk := range x {
							s += xk * w[k*sh.D+j]
						}
						z[j] = math.Cos(s)
					}
				}
			}
			report(b)
		})
	}
}
