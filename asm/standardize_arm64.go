//go:build arm64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// Standardize's dispatch on arm64 (body in standardize_arm64.s, generated
// by internal/gen/arm64).
func standardize(z, x, mean, scale []float64) {
	if path == cpu.NEON {
		standardizeNEON(z, x, mean, scale)
		return
	}
	standardizeRef(z, x, mean, scale)
}
