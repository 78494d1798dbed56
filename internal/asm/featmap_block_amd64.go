//go:build amd64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// affineBlocked reports whether the selected path has blocked affine kernels.
func affineBlocked() bool { return path == cpu.AVX512 || path == cpu.AVX2 }

// affineBlock runs the blocked kernel of r ∈ {8, 4, 2, 1} rows on np panels.
func affineBlock(r int, t []float64, ldt int, x []float64, ldx, d int, p, b []float64, np int) {
	if path == cpu.AVX512 {
		switch r {
		case 8:
			affineBlock8AVX512(t, ldt, x, ldx, d, p, b, np)
		case 4:
			affineBlock4AVX512(t, ldt, x, ldx, d, p, b, np)
		case 2:
			affineBlock2AVX512(t, ldt, x, ldx, d, p, b, np)
		default:
			affineBlock1AVX512(t, ldt, x, ldx, d, p, b, np)
		}
		return
	}
	switch r {
	case 8:
		affineBlock8AVX2(t, ldt, x, ldx, d, p, b, np)
	case 4:
		affineBlock4AVX2(t, ldt, x, ldx, d, p, b, np)
	case 2:
		affineBlock2AVX2(t, ldt, x, ldx, d, p, b, np)
	default:
		affineBlock1AVX2(t, ldt, x, ldx, d, p, b, np)
	}
}
