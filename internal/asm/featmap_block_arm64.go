//go:build arm64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// affineBlocked reports whether the selected path has blocked affine kernels.
func affineBlocked() bool { return path == cpu.NEON }

// affineBlock runs the blocked NEON kernel of r ∈ {8, 4, 2, 1} rows on np panels.
func affineBlock(r int, t []float64, ldt int, x []float64, ldx, d int, p, b []float64, np int) {
	switch r {
	case 8:
		affineBlock8NEON(t, ldt, x, ldx, d, p, b, np)
	case 4:
		affineBlock4NEON(t, ldt, x, ldx, d, p, b, np)
	case 2:
		affineBlock2NEON(t, ldt, x, ldx, d, p, b, np)
	default:
		affineBlock1NEON(t, ldt, x, ldx, d, p, b, np)
	}
}
