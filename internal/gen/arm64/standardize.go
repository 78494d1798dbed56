package main

import (
	"bytes"

	"github.com/rfkit/rfkit/internal/gen/neon"
)

// Standardize (asm/standardize.go), NEON body: z[i] = (x[i] − mean[i]) /
// scale[i], +0 where x[i] is NaN, as internal/gen/amd64/standardize.go. Each
// element is one FSUB and one FDIV (each rounded once, as the scalar FSUBD
// and FDIVD of the twin), ANDed with FCMEQ x, x (all ones unless x is NaN).
// Four elements per iteration, then two, then one on lane 0 of the same
// instructions (FMOVD clears lane 1, whose 0/0 is never stored).
func generateStandardize(e *neon.Emitter, st *bytes.Buffer) {
	const (
		z, x, n, mean, scale = neon.R0, neon.R1, neon.R2, neon.R3, neon.R4
	)
	e.Raw("// func standardizeNEON(z, x, mean, scale []float64)")
	e.Raw("TEXT ·standardizeNEON(SB), NOSPLIT, $0-96")
	e.Raw("\tMOVD z_base+0(FP), %v", z)
	e.Raw("\tMOVD x_base+24(FP), %v", x)
	e.Raw("\tMOVD x_len+32(FP), %v", n)
	e.Raw("\tMOVD mean_base+48(FP), %v", mean)
	e.Raw("\tMOVD scale_base+72(FP), %v", scale)
	// body standardises the vectors V0 (and V1 when two) against V2 (V3) and
	// V4 (V5), the masks in V6 (V7).
	body := func(vecs int) {
		for v := neon.VReg(0); v < neon.VReg(vecs); v++ {
			e.FCMEQ(6+v, v, v)
		}
		for v := neon.VReg(0); v < neon.VReg(vecs); v++ {
			e.FSUB(v, v, 2+v)
		}
		for v := neon.VReg(0); v < neon.VReg(vecs); v++ {
			e.FDIV(v, v, 4+v)
		}
		for v := neon.VReg(0); v < neon.VReg(vecs); v++ {
			e.AND(v, v, 6+v)
		}
	}
	e.Label("std_loop4")
	e.Raw("\tCMP $4, %v", n)
	e.Raw("\tBLT std_two")
	e.LD1Post(x, 32, 0, 1)
	e.LD1Post(mean, 32, 2, 3)
	e.LD1Post(scale, 32, 4, 5)
	body(2)
	e.ST1Post(z, 32, 0, 1)
	e.Raw("\tSUB $4, %v", n)
	e.Raw("\tB std_loop4")
	e.Label("std_two")
	e.Raw("\tCMP $2, %v", n)
	e.Raw("\tBLT std_one")
	e.LD1Post(x, 16, 0)
	e.LD1Post(mean, 16, 2)
	e.LD1Post(scale, 16, 4)
	body(1)
	e.ST1Post(z, 16, 0)
	e.Raw("\tSUB $2, %v", n)
	e.Label("std_one")
	e.Raw("\tCBZ %v, std_done", n)
	e.Raw("\tFMOVD (%v), F0", x)
	e.Raw("\tFMOVD (%v), F2", mean)
	e.Raw("\tFMOVD (%v), F4", scale)
	body(1)
	e.Raw("\tFMOVD F0, (%v)", z)
	e.Label("std_done")
	e.Raw("\tRET")
	st.WriteString(`
// standardizeNEON is the NEON body of Standardize: two lanes per vector
// (FSUB, FDIV, an FCMEQ of x with itself ANDed in), the last odd element
// through the same instructions on one lane; it mirrors the pure-Go twin.
//
//go:noescape
func standardizeNEON(z, x, mean, scale []float64)
`)
}
