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
				restore, err := SetPath(p)
				if err != nil {
					b.Fatal(err)
				}
				defer restore()
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
