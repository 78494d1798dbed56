package xmath

import "math"

// The two rounding rules of rfkit's scalar dot products. Both sum in index
// order and give the same bits on every architecture; neither may be
// swapped for the other where a model file or a golden test depends on it,
// which is why both exist:
//
//   - Dot fuses each product into the sum (math.FMA): one rounding per
//     term. The linear read-outs of the model files written before the
//     fused kernels (rks, srff) and their training objectives use it.
//   - DotRound rounds each product on its own (float64(a*b)), so the Go
//     compiler cannot contract it into an FMA on arm64: the fit
//     algorithms whose models were fixed with it (solvers, mfga, prff) use
//     it.

// Dot is Σ a_j·b_j with explicit FMAs, len(b) ≥ len(a).
func Dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for j, v := range a {
		s = math.FMA(v, b[j], s)
	}
	return s
}

// DotRound is Σ a_j·b_j with every product rounded before it is added,
// len(b) ≥ len(a).
func DotRound(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for j, v := range a {
		s += float64(v * b[j])
	}
	return s
}

// Finite reports whether v is neither NaN nor ±Inf: the one copy every
// package's input checks use.
func Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
