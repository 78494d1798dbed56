//go:build arm64 && gc && !purego && !noasm

// The NEON body of Standardize (see standardize.go for the contract and
// standardize_ref.go for the twin it mirrors). Hand-written: vector FSUB,
// FDIV and FCMEQ, which Go's arm64 assembler lacks, are WORDs with the
// encodings of internal/gen/neon (checked there against llvm-mc). Each
// element is one FSUB and one FDIV (each rounded once, as the scalar
// FSUBD and FDIVD of the twin), ANDed with FCMEQ x, x (all ones unless x
// is NaN), so a NaN x gives +0. Four elements per iteration, then two,
// then one on lane 0 of the same instructions (FMOVD clears lane 1, whose
// 0/0 is never stored). TestStandardize* run it under qemu-aarch64.

#include "textflag.h"

#define FSUB2D(d, n, m) WORD $(0x4ee0d400 | ((m)<<16) | ((n)<<5) | (d))
#define FDIV2D(d, n, m) WORD $(0x6e60fc00 | ((m)<<16) | ((n)<<5) | (d))
#define FCMEQ2D(d, n, m) WORD $(0x4e60e400 | ((m)<<16) | ((n)<<5) | (d))

// func standardizeNEON(z, x, mean, scale []float64)
TEXT ·standardizeNEON(SB), NOSPLIT, $0-96
	MOVD z_base+0(FP), R0
	MOVD x_base+24(FP), R1
	MOVD x_len+32(FP), R2
	MOVD mean_base+48(FP), R3
	MOVD scale_base+72(FP), R4

std_loop4:
	CMP    $4, R2
	BLT    std_two
	VLD1.P 32(R1), [V0.D2, V1.D2]
	VLD1.P 32(R3), [V2.D2, V3.D2]
	VLD1.P 32(R4), [V4.D2, V5.D2]
	FCMEQ2D(6, 0, 0)
	FCMEQ2D(7, 1, 1)
	FSUB2D(0, 0, 2)
	FSUB2D(1, 1, 3)
	FDIV2D(0, 0, 4)
	FDIV2D(1, 1, 5)
	VAND   V6.B16, V0.B16, V0.B16
	VAND   V7.B16, V1.B16, V1.B16
	VST1.P [V0.D2, V1.D2], 32(R0)
	SUB    $4, R2
	B      std_loop4

std_two:
	CMP    $2, R2
	BLT    std_one
	VLD1.P 16(R1), [V0.D2]
	VLD1.P 16(R3), [V2.D2]
	VLD1.P 16(R4), [V4.D2]
	FCMEQ2D(6, 0, 0)
	FSUB2D(0, 0, 2)
	FDIV2D(0, 0, 4)
	VAND   V6.B16, V0.B16, V0.B16
	VST1.P [V0.D2], 16(R0)
	SUB    $2, R2

std_one:
	CBZ   R2, std_done
	FMOVD (R1), F0
	FMOVD (R3), F2
	FMOVD (R4), F4
	FCMEQ2D(6, 0, 0)
	FSUB2D(0, 0, 2)
	FDIV2D(0, 0, 4)
	VAND  V6.B16, V0.B16, V0.B16
	FMOVD F0, (R0)

std_done:
	RET
