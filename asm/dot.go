package asm

import "fmt"

// The dot family: the two operations of a dual coordinate-descent visit
// (solvers.LinearSVM) on one row x of float32 or float64 values against a
// float64 weight vector w, and a prefetch of the next row.
//
// # Contract (each kernel is the Go loop it implements)
//
//	DotF32, DotF64:  var s [16]float64                // +0
//		for i := range x { s[i%16] = math.FMA(w[i], float64(x[i]), s[i%16]) }
//		if r := len(x) % 16; r > 0 { for l := r; l < 16; l++ { s[l] += 0 } }
//		for h := 8; h >= 1; h /= 2 { for l := 0; l < h; l++ { s[l] += s[l+h] } }
//		return s[0]
//	AxpyF32, AxpyF64: for i := range x { y[i] = math.FMA(a, float64(x[i]), y[i]) }
//
// float32 elements are widened exactly (VCVTPS2PD, FCVTL); the arithmetic
// is float64. The dot order has sixteen lanes, whatever the vector width:
// AVX-512 keeps them in two ZMM registers, AVX2 in four YMM, NEON in eight
// Q registers, and the pure-Go twin (dot_ref.go) in an array. The last
// partial group is loaded under a mask (AVX-512, AVX2) or from a
// zero-padded copy (NEON); its empty lanes add fma(0, 0, s) = s + 0, which
// the twin spells s[l] += 0 (it turns a lane that underflowed to −0 into
// +0). So every path, every GOARCH and -tags purego give the same bits;
// NaN results are NaN with an unspecified payload.
//
// # Accuracy
//
// With k = ⌈len(x)/16⌉ and u = 2⁻⁵³, for finite inputs whose products and
// partial sums neither overflow nor underflow,
//
//	|DotF32(w, x) − Σ w_i·x_i| ≤ γ(k+4)·Σ |w_i·x_i|,  γ(m) = m·u/(1 − m·u),
//
// (each lane is a chain of k FMAs, one rounding each, and the halving tree
// adds four roundings); at len(x) = 100 that is 11·u ≈ 1.2·10⁻¹⁵ of Σ|w_i x_i|,
// against 100·u for one sequential chain. TestDotAccuracy checks it against
// an exact math/big sum. AxpyF32/AxpyF64 round once per element (≤ ½ ULP).
// Overflow gives ±Inf or NaN as the same loop would; NaN and ±Inf propagate.
//
// # Speed
//
// One call at len 100 costs a few ns plus the row's loads: about 7 FMA
// latencies for the lane chains and 4 adds for the tree on AVX-512. At
// that size the call overhead and the loads of a row that is not in cache
// dominate, hence PrefetchF32: a coordinate-descent pass knows its next
// rows and can ask for them while it computes on the current one.

// DotF32 returns the dot product w·x of a float64 vector and a float32 row
// in the 16-lane order of the package's dot contract (see above), with
// FMAs. It panics if len(w) != len(x).
func DotF32(w []float64, x []float32) float64 {
	if len(w) != len(x) {
		panic(fmt.Sprintf("asm.DotF32: len(w) = %d, len(x) = %d", len(w), len(x)))
	}
	return dotF32(w, x)
}

// DotF64 is DotF32 for a float64 row: the same order, so DotF64(w, x)
// equals DotF32(w, x32) whenever x holds the float32 values x32. It
// panics if len(w) != len(x).
func DotF64(w, x []float64) float64 {
	if len(w) != len(x) {
		panic(fmt.Sprintf("asm.DotF64: len(w) = %d, len(x) = %d", len(w), len(x)))
	}
	return dotF64(w, x)
}

// AxpyF32 sets y[i] = fma(a, x[i], y[i]) for every i (x widened exactly):
// one rounding per element. It panics if len(y) != len(x).
func AxpyF32(a float64, x []float32, y []float64) {
	if len(y) != len(x) {
		panic(fmt.Sprintf("asm.AxpyF32: len(x) = %d, len(y) = %d", len(x), len(y)))
	}
	axpyF32(a, x, y)
}

// AxpyF64 is AxpyF32 for a float64 x. It panics if len(y) != len(x).
func AxpyF64(a float64, x, y []float64) {
	if len(y) != len(x) {
		panic(fmt.Sprintf("asm.AxpyF64: len(x) = %d, len(y) = %d", len(x), len(y)))
	}
	axpyF64(a, x, y)
}

// PrefetchF32 asks the CPU to bring every cache line of x into the L1
// cache (PREFETCHT0 on amd64, PRFM PLDL1KEEP on arm64, nothing in a
// purego build) and returns at once: a hint that changes no result and
// never faults. Use it a few rows ahead of a DotF32 on rows read in random
// order from a large matrix.
func PrefetchF32(x []float32) {
	if len(x) > 0 {
		prefetch(x)
	}
}
