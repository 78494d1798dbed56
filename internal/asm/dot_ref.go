package asm

import "math"

// dotLanes is the number of partial sums of the dot contract (dot.go); it
// must equal dotLanes in internal/gen/amd64/dot.go and the eight 2-lane
// accumulators of dot_arm64.s.
const dotLanes = 16

// dotPad is the +0 that the empty lanes of a last partial group receive; a
// variable, so that the compiler cannot drop s + 0 (it is not an identity
// for s = −0).
var dotPad = 0.0

// dotRef is the pure-Go twin of DotF32 and DotF64: the contract's loop.
func dotRef[T float32 | float64](w []float64, x []T) float64 {
	w = w[:len(x)]
	var s [dotLanes]float64
	i := 0
	for ; i+dotLanes <= len(x); i += dotLanes {
		xx, ww := x[i:i+dotLanes:i+dotLanes], w[i:i+dotLanes:i+dotLanes]
		for l := range s {
			s[l] = math.FMA(ww[l], float64(xx[l]), s[l])
		}
	}
	if r := len(x) - i; r > 0 {
		for l := 0; l < r; l++ {
			s[l] = math.FMA(w[i+l], float64(x[i+l]), s[l])
		}
		for l := r; l < dotLanes; l++ {
			s[l] += dotPad
		}
	}
	for h := dotLanes / 2; h >= 1; h /= 2 {
		for l := 0; l < h; l++ {
			s[l] += s[l+h]
		}
	}
	return s[0]
}

// axpyRef is the pure-Go twin of AxpyF32 and AxpyF64.
func axpyRef[T float32 | float64](a float64, x []T, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] = math.FMA(a, float64(v), y[i])
	}
}
