//go:build arm64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// Standardize's dispatch on arm64 (body in standardize_arm64.s).
func standardize(z, x, mean, scale []float64) {
	if path == cpu.NEON {
		standardizeNEON(z, x, mean, scale)
		return
	}
	standardizeRef(z, x, mean, scale)
}

// standardizeNEON is the NEON body of Standardize: two lanes per vector
// (FSUB, FDIV, an FCMEQ of x with itself ANDed in), the last odd element
// through the same instructions on one lane; it mirrors the pure-Go twin.
//
//go:noescape
func standardizeNEON(z, x, mean, scale []float64)
