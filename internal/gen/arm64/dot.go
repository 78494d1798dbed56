package main

import (
	"bytes"

	"github.com/rfkit/rfkit/internal/gen/neon"
)

// The dot family (asm/dot.go), NEON bodies, as internal/gen/amd64/dot.go:
// DotF32 and DotF64 keep sixteen lanes in V16…V23 (lane j in V(16 + j/2),
// half j%2), one FMLA per element in index order, then combine them
// (j += j+8, j+4, j+2, j+1) exactly as the pure-Go twin dotRef. A last
// partial group is copied into a zeroed stack buffer (w: 128 bytes, x: 64
// or 128 bytes after it) and runs through the main loop once more, so its
// empty lanes receive fma(0, 0, s), as the twin's s += 0. AxpyF32 and
// AxpyF64 are y[i] = fma(a, x[i], y[i]), four elements per iteration, then
// one at a time on lane 0.

const (
	dotW, dotX, dotN = neon.R0, neon.R1, neon.R2
	dotTmp           = neon.R3
	dotBufW, dotBufX = neon.R5, neon.R6
	dotCopyW         = neon.R7
	dotCopyX         = neon.R8
	dotAcc           = neon.VReg(16) // V16…V23
	dotZero          = neon.VReg(28) // V28…V31 zero
)

func generateDot(e *neon.Emitter, st *bytes.Buffer) {
	generateDotKernel(e, "dotF32", true)
	e.Raw("")
	generateDotKernel(e, "dotF64", false)
	e.Raw("")
	generateAxpy(e, "axpyF32", true)
	e.Raw("")
	generateAxpy(e, "axpyF64", false)
	e.Raw("")
	generatePrefetch(e)
	st.WriteString(`
// dotF32NEON is the NEON body of DotF32: the 16 lanes in eight 2-lane
// accumulators, the last partial group from a zero-padded copy on the stack.
//
//go:noescape
func dotF32NEON(w []float64, x []float32) float64

// dotF64NEON is the NEON body of DotF64 (as dotF32NEON).
//
//go:noescape
func dotF64NEON(w, x []float64) float64

// axpyF32NEON is the NEON body of AxpyF32: y[i] = fma(a, x[i], y[i]).
//
//go:noescape
func axpyF32NEON(a float64, x []float32, y []float64)

// axpyF64NEON is the NEON body of AxpyF64.
//
//go:noescape
func axpyF64NEON(a float64, x, y []float64)

// prefetchF32 issues PRFM PLDL1KEEP for every 64-byte line of x.
//
//go:noescape
func prefetchF32(x []float32)
`)
}

// generateDotKernel emits <name>NEON(w []float64, x []float32 or []float64) float64.
func generateDotKernel(e *neon.Emitter, name string, f32 bool) {
	frame := 256 // w buffer 128 bytes, x buffer 128 bytes
	xType := "[]float64"
	if f32 {
		frame, xType = 192, "[]float32"
	}
	if f32 {
		e.Raw("// func %sNEON(w []float64, x %s) float64", name, xType)
	} else {
		e.Raw("// func %sNEON(w, x %s) float64", name, xType)
	}
	e.Raw("TEXT ·%sNEON(SB), NOSPLIT, $%d-56", name, frame)
	e.Raw("\tMOVD w_base+0(FP), %v", dotW)
	e.Raw("\tMOVD x_base+24(FP), %v", dotX)
	e.Raw("\tMOVD x_len+32(FP), %v", dotN)
	// The sixteen lanes start at zero; V28…V31 are zero vectors for the buffer.
	for v := dotAcc; v < dotAcc+8; v++ {
		e.EOR(v, v, v)
	}
	for v := dotZero; v < dotZero+4; v++ {
		e.EOR(v, v, v)
	}
	loop, tail, copyLoop, combine := name+"_loop", name+"_tail", name+"_copy", name+"_combine"
	e.Label(loop)
	e.Raw("\tCMP $16, %v", dotN)
	e.Raw("\tBLT %s", tail)
	if f32 {
		// Sixteen float32 into V0…V3, widened into V8…V15 (exact).
		e.LD1S4Post(dotX, 64, 0, 1, 2, 3)
		for v := neon.VReg(0); v < 4; v++ {
			e.FCVTL(8+2*v, v)
			e.FCVTL2(9+2*v, v)
		}
	} else {
		e.LD1Post(dotX, 64, 8, 9, 10, 11)
		e.LD1Post(dotX, 64, 12, 13, 14, 15)
	}
	e.LD1Post(dotW, 64, 0, 1, 2, 3)
	e.LD1Post(dotW, 64, 4, 5, 6, 7)
	for v := neon.VReg(0); v < 8; v++ {
		e.FMLA(dotAcc+v, 8+v, v) // lane += x·w, one rounding
	}
	e.Raw("\tSUB $16, %v", dotN)
	e.Raw("\tB %s", loop)

	e.Label(tail)
	e.Raw("\tCBZ %v, %s", dotN, combine)
	e.Raw("\tMOVD $bw-%d(SP), %v", frame, dotBufW)
	e.Raw("\tADD $128, %v, %v", dotBufW, dotBufX)
	e.ST1(dotBufW, dotZero, dotZero+1, dotZero+2, dotZero+3)
	e.Raw("\tADD $64, %v, %v", dotBufW, dotCopyW)
	e.ST1(dotCopyW, dotZero, dotZero+1, dotZero+2, dotZero+3)
	e.ST1(dotBufX, dotZero, dotZero+1, dotZero+2, dotZero+3)
	if !f32 {
		e.Raw("\tADD $64, %v, %v", dotBufX, dotCopyW)
		e.ST1(dotCopyW, dotZero, dotZero+1, dotZero+2, dotZero+3)
	}
	e.Raw("\tMOVD %v, %v", dotBufW, dotCopyW)
	e.Raw("\tMOVD %v, %v", dotBufX, dotCopyX)
	e.Label(copyLoop)
	e.Raw("\tMOVD.P 8(%v), %v", dotW, dotTmp)
	e.Raw("\tMOVD.P %v, 8(%v)", dotTmp, dotCopyW)
	if f32 {
		e.Raw("\tMOVWU.P 4(%v), %v", dotX, dotTmp)
		e.Raw("\tMOVW.P %v, 4(%v)", dotTmp, dotCopyX)
	} else {
		e.Raw("\tMOVD.P 8(%v), %v", dotX, dotTmp)
		e.Raw("\tMOVD.P %v, 8(%v)", dotTmp, dotCopyX)
	}
	e.Raw("\tSUBS $1, %v, %v", dotN, dotN)
	e.Raw("\tBNE %s", copyLoop)
	e.Raw("\tMOVD %v, %v", dotBufW, dotW)
	e.Raw("\tMOVD %v, %v", dotBufX, dotX)
	e.Raw("\tMOVD $16, %v", dotN)
	e.Raw("\tB %s", loop)

	// Combine: j += j+8, j+4, j+2, then the pair, as dotRef.
	e.Label(combine)
	for v := neon.VReg(0); v < 4; v++ {
		e.FADD(dotAcc+v, dotAcc+v, dotAcc+4+v)
	}
	e.FADD(dotAcc, dotAcc, dotAcc+2)
	e.FADD(dotAcc+1, dotAcc+1, dotAcc+3)
	e.FADD(dotAcc, dotAcc, dotAcc+1)
	e.FADDPD(0, dotAcc)
	e.Raw("\tFMOVD F0, ret+48(FP)")
	e.Raw("\tRET")
}

// generateAxpy emits <name>NEON(a float64, x []float32 or []float64, y []float64).
func generateAxpy(e *neon.Emitter, name string, f32 bool) {
	const a, x, n, y = neon.R3, neon.R1, neon.R2, neon.R4
	const va = neon.VReg(31)
	if f32 {
		e.Raw("// func %sNEON(a float64, x []float32, y []float64)", name)
	} else {
		e.Raw("// func %sNEON(a float64, x, y []float64)", name)
	}
	e.Raw("TEXT ·%sNEON(SB), NOSPLIT, $0-56", name)
	e.Raw("\tMOVD a+0(FP), %v", a)
	e.DUP(va, a)
	e.Raw("\tMOVD x_base+8(FP), %v", x)
	e.Raw("\tMOVD x_len+16(FP), %v", n)
	e.Raw("\tMOVD y_base+32(FP), %v", y)
	loop, tail, done := name+"_loop", name+"_tail", name+"_done"
	e.Label(loop)
	e.Raw("\tCMP $4, %v", n)
	e.Raw("\tBLT %s", tail)
	if f32 {
		e.LD1S4Post(x, 16, 0)
		e.FCVTL(1, 0)
		e.FCVTL2(2, 0)
	} else {
		e.LD1Post(x, 32, 1, 2)
	}
	e.LD1(y, 3, 4)
	e.FMLA(3, 1, va)
	e.FMLA(4, 2, va)
	e.ST1Post(y, 32, 3, 4)
	e.Raw("\tSUB $4, %v", n)
	e.Raw("\tB %s", loop)
	e.Label(tail)
	e.Raw("\tCBZ %v, %s", n, done)
	if f32 {
		e.Raw("\tFMOVS.P 4(%v), F0", x)
		e.FCVTL(0, 0)
	} else {
		e.Raw("\tFMOVD.P 8(%v), F0", x)
	}
	e.Raw("\tFMOVD (%v), F1", y)
	e.FMLA(1, 0, va)
	e.Raw("\tFMOVD.P F1, 8(%v)", y)
	e.Raw("\tSUB $1, %v", n)
	e.Raw("\tB %s", tail)
	e.Label(done)
	e.Raw("\tRET")
}

// generatePrefetch emits prefetchF32(x []float32): PRFM PLDL1KEEP on every
// 64-byte line of x.
func generatePrefetch(e *neon.Emitter) {
	const p, end = neon.R0, neon.R1
	e.Raw("// func prefetchF32(x []float32)")
	e.Raw("TEXT ·prefetchF32(SB), NOSPLIT, $0-24")
	e.Raw("\tMOVD x_base+0(FP), %v", p)
	e.Raw("\tMOVD x_len+8(FP), %v", end)
	e.Raw("\tCBZ %v, prefetch_done", end)
	e.Raw("\tADD %v<<2, %v, %v", end, p, end)
	e.Raw("\tSUB $1, %v", end)
	e.Raw("\tAND $-64, %v", p)
	e.Label("prefetch_loop")
	e.Raw("\tPRFM (%v), PLDL1KEEP", p)
	e.Raw("\tADD $64, %v", p)
	e.Raw("\tCMP %v, %v", end, p)
	e.Raw("\tBLS prefetch_loop")
	e.Label("prefetch_done")
	e.Raw("\tRET")
}
