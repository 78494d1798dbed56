//go:build arm64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// The dot family's dispatch on arm64 (bodies in dot_arm64.s).

func dotF32(w []float64, x []float32) float64 {
	if path == cpu.NEON {
		return dotF32NEON(w, x)
	}
	return dotRef(w, x)
}

func dotF64(w, x []float64) float64 {
	if path == cpu.NEON {
		return dotF64NEON(w, x)
	}
	return dotRef(w, x)
}

func axpyF32(a float64, x []float32, y []float64) {
	if path == cpu.NEON {
		axpyF32NEON(a, x, y)
		return
	}
	axpyRef(a, x, y)
}

func axpyF64(a float64, x, y []float64) {
	if path == cpu.NEON {
		axpyF64NEON(a, x, y)
		return
	}
	axpyRef(a, x, y)
}

// prefetch is PRFM PLDL1KEEP on every path.
func prefetch(x []float32) { prefetchF32(x) }
