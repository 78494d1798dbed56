//go:build amd64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// The dot family's dispatch on amd64 (bodies in dot_amd64.s).

func dotF32(w []float64, x []float32) float64 {
	switch path {
	case cpu.AVX512:
		return dotF32AVX512(w, x)
	case cpu.AVX2:
		return dotF32AVX2(w, x)
	}
	return dotRef(w, x)
}

func dotF64(w, x []float64) float64 {
	switch path {
	case cpu.AVX512:
		return dotF64AVX512(w, x)
	case cpu.AVX2:
		return dotF64AVX2(w, x)
	}
	return dotRef(w, x)
}

func axpyF32(a float64, x []float32, y []float64) {
	switch path {
	case cpu.AVX512:
		axpyF32AVX512(a, x, y)
	case cpu.AVX2:
		axpyF32AVX2(a, x, y)
	default:
		axpyRef(a, x, y)
	}
}

func axpyF64(a float64, x, y []float64) {
	switch path {
	case cpu.AVX512:
		axpyF64AVX512(a, x, y)
	case cpu.AVX2:
		axpyF64AVX2(a, x, y)
	default:
		axpyRef(a, x, y)
	}
}

// prefetch is PREFETCHT0 on every path (it needs no SIMD state).
func prefetch(x []float32) { prefetchF32(x) }
