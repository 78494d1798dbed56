// Package asm is rfkit's public kernel API: the general vector kernels the
// feature maps and learners are built on, each with generated assembly for
// AVX-512, AVX2+FMA and NEON, a pure-Go twin, and run-time dispatch between
// them. Every kernel gives the same bits on every path and architecture
// (RFKIT_DISABLE=avx512,avx2,neon and -tags purego select slower paths).
//
// The contracts, as the Go loops they implement:
//
//	CosAffine: for j := range b {                                 // one feature-map row
//		acc := b[j]
//		for k := range x { acc = math.FMA(x[k], w[k*ldw+j], acc) }
//		dst[j] = scale * cos(acc)
//	}
//	DotF32, DotF64: w·x in sixteen FMA lanes (lane i mod 16), then a fixed tree
//	AxpyF32, AxpyF64: for i := range x { y[i] = math.FMA(a, x[i], y[i]) }
//	Standardize: for i := range x { z[i] = (x[i] - mean[i]) / scale[i]; if x[i] != x[i] { z[i] = 0 } }
//
// The elementwise cos, sin, sincos and exp over slices (≤ 1 ULP, the same
// kernels) are package trig's. The learners' fused reductions live in an
// internal package; packages trig and featmap are the friendlier faces of
// these kernels.
package asm

import iasm "github.com/rfkit/rfkit/internal/asm"

// CosAffine writes one row of a random-Fourier feature map: for each
// column j < len(b), dst[j] = scale·cos(b[j] + Σ_k x[k]·w[k·ldw+j]), the
// sum formed by one FMA per k in k order. It panics if the slices are too
// short for len(x) rows of w with stride ldw.
func CosAffine(dst, x, w, b []float64, ldw int, scale float64) {
	iasm.CosAffine(dst, x, w, b, ldw, scale)
}

// DotF32 returns w·x over len(x) elements (x in float32, widened exactly):
// sixteen FMA lanes (element i in lane i mod 16), combined by a fixed tree,
// so the bits do not depend on the path. It panics if len(w) != len(x).
func DotF32(w []float64, x []float32) float64 { return iasm.DotF32(w, x) }

// DotF64 is DotF32 for float64 x.
func DotF64(w, x []float64) float64 { return iasm.DotF64(w, x) }

// AxpyF32 sets y[i] = fma(a, x[i], y[i]) for every i (x widened exactly,
// one rounding per element). It panics if len(y) != len(x).
func AxpyF32(a float64, x []float32, y []float64) { iasm.AxpyF32(a, x, y) }

// AxpyF64 is AxpyF32 for float64 x.
func AxpyF64(a float64, x, y []float64) { iasm.AxpyF64(a, x, y) }

// Standardize sets z[i] = (x[i] − mean[i]) / scale[i] for every i, each
// operation rounded once, and +0 where x[i] is NaN (a missing value). It
// panics unless len(z), len(mean) and len(scale) equal len(x); z may be x
// itself but must not otherwise overlap the inputs.
func Standardize(z, x, mean, scale []float64) { iasm.Standardize(z, x, mean, scale) }

// Selected returns the path the kernels run on: "avx512", "avx2", "neon"
// or "generic".
func Selected() string { return iasm.Selected() }

// Paths returns the paths this process can run: those compiled in (none
// with -tags purego) that the CPU supports and RFKIT_DISABLE left on, plus
// "generic".
func Paths() []string { return iasm.Paths() }
