//go:build (!amd64 && !arm64) || !gc || purego || noasm

package asm

// No blocked affine kernels in this build: CosAffineRows runs CosAffine on
// each row (the same bits).
func affineBlocked() bool { return false }

func affineBlock(r int, t []float64, ldt int, x []float64, ldx, d int, p, b []float64, np int) {
	panic("asm: no blocked affine kernel in this build")
}
