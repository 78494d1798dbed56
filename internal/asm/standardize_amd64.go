//go:build amd64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// Standardize's dispatch on amd64 (bodies in standardize_amd64.s).
func standardize(z, x, mean, scale []float64) {
	switch path {
	case cpu.AVX512:
		standardizeAVX512(z, x, mean, scale)
	case cpu.AVX2:
		standardizeAVX2(z, x, mean, scale)
	default:
		standardizeRef(z, x, mean, scale)
	}
}
