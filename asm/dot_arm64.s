//go:build arm64 && gc && !purego && !noasm

// The NEON bodies of the dot family (see dot.go for the contract and
// dot_ref.go for the twin they mirror). Hand-written: the instructions Go's
// arm64 assembler lacks (FCVTL, FCVTL2, vector FADD, FADDP) are WORDs whose
// encodings come from llvm-mc; TestDot* run them under qemu-aarch64.
//
// Sixteen lanes live in V16…V23 (lane j in V(16 + j/2), half j%2). A last
// partial group is copied into a zeroed stack buffer (w: 128 bytes at
// bw-192(SP), x: 64 or 128 bytes after it) and runs through the main loop
// once more, so its empty lanes receive fma(0, 0, s), as the twin's s += 0.

#include "textflag.h"

#define FCVTL(d, n) WORD $(0x0e617800 | ((n)<<5) | (d))
#define FCVTL2(d, n) WORD $(0x4e617800 | ((n)<<5) | (d))
#define FADD2D(d, n, m) WORD $(0x4e60d400 | ((m)<<16) | ((n)<<5) | (d))
#define FADDP2D(d, n) WORD $(0x7e70d800 | ((n)<<5) | (d))

// ZEROACC clears the sixteen lanes; V24…V31 become zero vectors too.
#define ZEROACC \
	VEOR V16.B16, V16.B16, V16.B16 \
	VEOR V17.B16, V17.B16, V17.B16 \
	VEOR V18.B16, V18.B16, V18.B16 \
	VEOR V19.B16, V19.B16, V19.B16 \
	VEOR V20.B16, V20.B16, V20.B16 \
	VEOR V21.B16, V21.B16, V21.B16 \
	VEOR V22.B16, V22.B16, V22.B16 \
	VEOR V23.B16, V23.B16, V23.B16 \
	VEOR V28.B16, V28.B16, V28.B16 \
	VEOR V29.B16, V29.B16, V29.B16 \
	VEOR V30.B16, V30.B16, V30.B16 \
	VEOR V31.B16, V31.B16, V31.B16

// FMA16 adds w (V0…V7) times x (V8…V15) into the sixteen lanes.
#define FMA16 \
	VFMLA V0.D2, V8.D2, V16.D2 \
	VFMLA V1.D2, V9.D2, V17.D2 \
	VFMLA V2.D2, V10.D2, V18.D2 \
	VFMLA V3.D2, V11.D2, V19.D2 \
	VFMLA V4.D2, V12.D2, V20.D2 \
	VFMLA V5.D2, V13.D2, V21.D2 \
	VFMLA V6.D2, V14.D2, V22.D2 \
	VFMLA V7.D2, V15.D2, V23.D2

// COMBINE halves the lanes (j += j+8, j+4, j+2, j+1) and leaves the sum in F0.
#define COMBINE \
	FADD2D(16, 16, 20) \
	FADD2D(17, 17, 21) \
	FADD2D(18, 18, 22) \
	FADD2D(19, 19, 23) \
	FADD2D(16, 16, 18) \
	FADD2D(17, 17, 19) \
	FADD2D(16, 16, 17) \
	FADDP2D(0, 16)

// func dotF32NEON(w []float64, x []float32) float64
TEXT ·dotF32NEON(SB), NOSPLIT, $192-56
	MOVD w_base+0(FP), R0
	MOVD x_base+24(FP), R1
	MOVD x_len+32(FP), R2
	ZEROACC

dotF32_loop:
	CMP  $16, R2
	BLT  dotF32_tail
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	FCVTL(8, 0)
	FCVTL2(9, 0)
	FCVTL(10, 1)
	FCVTL2(11, 1)
	FCVTL(12, 2)
	FCVTL2(13, 2)
	FCVTL(14, 3)
	FCVTL2(15, 3)
	VLD1.P 64(R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	FMA16
	SUB  $16, R2
	B    dotF32_loop

dotF32_tail:
	CBZ  R2, dotF32_combine
	MOVD $bw-192(SP), R5
	ADD  $128, R5, R6
	VST1 [V28.D2, V29.D2, V30.D2, V31.D2], (R5)
	ADD  $64, R5, R7
	VST1 [V28.D2, V29.D2, V30.D2, V31.D2], (R7)
	VST1 [V28.D2, V29.D2, V30.D2, V31.D2], (R6)
	MOVD R5, R7
	MOVD R6, R8

dotF32_copy:
	MOVD.P  8(R0), R3
	MOVD.P  R3, 8(R7)
	MOVWU.P 4(R1), R3
	MOVW.P  R3, 4(R8)
	SUBS    $1, R2, R2
	BNE     dotF32_copy
	MOVD    R5, R0
	MOVD    R6, R1
	MOVD    $16, R2
	B       dotF32_loop

dotF32_combine:
	COMBINE
	FMOVD F0, ret+48(FP)
	RET

// func dotF64NEON(w, x []float64) float64
TEXT ·dotF64NEON(SB), NOSPLIT, $256-56
	MOVD w_base+0(FP), R0
	MOVD x_base+24(FP), R1
	MOVD x_len+32(FP), R2
	ZEROACC

dotF64_loop:
	CMP  $16, R2
	BLT  dotF64_tail
	VLD1.P 64(R1), [V8.D2, V9.D2, V10.D2, V11.D2]
	VLD1.P 64(R1), [V12.D2, V13.D2, V14.D2, V15.D2]
	VLD1.P 64(R0), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	FMA16
	SUB  $16, R2
	B    dotF64_loop

dotF64_tail:
	CBZ  R2, dotF64_combine
	MOVD $bw-256(SP), R5
	ADD  $128, R5, R6
	VST1 [V28.D2, V29.D2, V30.D2, V31.D2], (R5)
	ADD  $64, R5, R7
	VST1 [V28.D2, V29.D2, V30.D2, V31.D2], (R7)
	VST1 [V28.D2, V29.D2, V30.D2, V31.D2], (R6)
	ADD  $64, R6, R7
	VST1 [V28.D2, V29.D2, V30.D2, V31.D2], (R7)
	MOVD R5, R7
	MOVD R6, R8

dotF64_copy:
	MOVD.P 8(R0), R3
	MOVD.P R3, 8(R7)
	MOVD.P 8(R1), R3
	MOVD.P R3, 8(R8)
	SUBS   $1, R2, R2
	BNE    dotF64_copy
	MOVD   R5, R0
	MOVD   R6, R1
	MOVD   $16, R2
	B      dotF64_loop

dotF64_combine:
	COMBINE
	FMOVD F0, ret+48(FP)
	RET

// func axpyF32NEON(a float64, x []float32, y []float64)
TEXT ·axpyF32NEON(SB), NOSPLIT, $0-56
	MOVD a+0(FP), R3
	VDUP R3, V31.D2
	MOVD x_base+8(FP), R1
	MOVD x_len+16(FP), R2
	MOVD y_base+32(FP), R4

axpyF32_loop:
	CMP  $4, R2
	BLT  axpyF32_tail
	VLD1.P 16(R1), [V0.S4]
	FCVTL(1, 0)
	FCVTL2(2, 0)
	VLD1 (R4), [V3.D2, V4.D2]
	VFMLA V31.D2, V1.D2, V3.D2
	VFMLA V31.D2, V2.D2, V4.D2
	VST1.P [V3.D2, V4.D2], 32(R4)
	SUB  $4, R2
	B    axpyF32_loop

axpyF32_tail:
	CBZ   R2, axpyF32_done
	FMOVS.P 4(R1), F0
	FCVTL(0, 0)
	FMOVD (R4), F1
	VFMLA V31.D2, V0.D2, V1.D2
	FMOVD.P F1, 8(R4)
	SUB   $1, R2
	B     axpyF32_tail

axpyF32_done:
	RET

// func axpyF64NEON(a float64, x, y []float64)
TEXT ·axpyF64NEON(SB), NOSPLIT, $0-56
	MOVD a+0(FP), R3
	VDUP R3, V31.D2
	MOVD x_base+8(FP), R1
	MOVD x_len+16(FP), R2
	MOVD y_base+32(FP), R4

axpyF64_loop:
	CMP  $4, R2
	BLT  axpyF64_tail
	VLD1.P 32(R1), [V1.D2, V2.D2]
	VLD1 (R4), [V3.D2, V4.D2]
	VFMLA V31.D2, V1.D2, V3.D2
	VFMLA V31.D2, V2.D2, V4.D2
	VST1.P [V3.D2, V4.D2], 32(R4)
	SUB  $4, R2
	B    axpyF64_loop

axpyF64_tail:
	CBZ   R2, axpyF64_done
	FMOVD.P 8(R1), F0
	FMOVD (R4), F1
	VFMLA V31.D2, V0.D2, V1.D2
	FMOVD.P F1, 8(R4)
	SUB   $1, R2
	B     axpyF64_tail

axpyF64_done:
	RET

// func prefetchF32(x []float32)
TEXT ·prefetchF32(SB), NOSPLIT, $0-24
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R1
	CBZ  R1, prefetch_done
	ADD  R1<<2, R0, R1
	SUB  $1, R1
	AND  $-64, R0

prefetch_loop:
	PRFM (R0), PLDL1KEEP
	ADD  $64, R0
	CMP  R1, R0
	BLS  prefetch_loop

prefetch_done:
	RET
