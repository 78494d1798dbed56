//go:build arm64 && gc && !purego && !noasm

package asm

// The NEON bodies of the dot family (dot_arm64.s, hand-written): each
// mirrors the pure-Go twin of dot_ref.go bit for bit.

// dotF32NEON is the NEON body of DotF32: the 16 lanes in eight 2-lane
// accumulators, the last partial group from a zero-padded copy on the stack.
//
//go:noescape
func dotF32NEON(w []float64, x []float32) float64

// dotF64NEON is the NEON body of DotF64 (as dotF32NEON).
//
//go:noescape
func dotF64NEON(w, x []float64) float64

// axpyF32NEON is the NEON body of AxpyF32: y[i] = fma(a, x[i], y[i]).
//
//go:noescape
func axpyF32NEON(a float64, x []float32, y []float64)

// axpyF64NEON is the NEON body of AxpyF64.
//
//go:noescape
func axpyF64NEON(a float64, x, y []float64)

// prefetchF32 issues PRFM PLDL1KEEP for every 64-byte line of x.
//
//go:noescape
func prefetchF32(x []float32)
