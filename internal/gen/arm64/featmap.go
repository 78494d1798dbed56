package main

import (
	"bytes"
	"fmt"

	"github.com/rfkit/rfkit/internal/gen/neon"
)

// The register-blocked affine kernels (asm/featmap_block.go), NEON bodies:
// the same contract as internal/gen/amd64/featmap.go,
//
//	func(t []float64, ldt int, x []float64, ldx, d int, p, b []float64, np int)
//
// writes θ = b + x·W for R rows × np panels of affinePanel columns into
// t[r·ldt + q·affinePanel + c], with W packed as d rows of affinePanel values
// per panel. Each θ is b[c] and then one FMLA per k in k order, the chain of
// the one-row kernel and the twin. A pass keeps four rows × six vectors of
// columns (V0–V23), the six W vectors of row k of the panel (V24–V29, loaded
// once for the four rows) and x[r][k] replicated by LD1R (V30); a panel of 24
// columns (12 vectors) takes two passes.

// affinePanel is the panel width in columns; it must equal asm.affinePanel.
const affinePanel = 24

// affineRows lists the row counts of the generated blocks (see amd64).
var affineRows = []int{8, 4, 2, 1}

const (
	affVecs     = 6 // vectors of columns per pass
	affPassRows = 4 // rows per pass
)

// General purpose registers of the blocked kernels.
const (
	aT     = neon.R0  // t, advanced by a panel
	aLdt   = neon.R1  // ldt in bytes
	aX     = neon.R2  // x
	aLdx   = neon.R3  // ldx in bytes
	aD     = neon.R4  // d
	aP     = neon.R5  // the current panel of p
	aB     = neon.R6  // the current panel of b
	aNp    = neon.R7  // panels left
	aK     = neon.R8  // rows of W left in a pass
	aWk    = neon.R9  // &p[k·affinePanel + pass columns]
	aRow0  = neon.R10 // aRow0 + r: &x[(row)·ldx + k]
	aTr    = neon.R14 // where a row of θ is stored
	aStep  = neon.R15 // bytes of one panel of p: d·affinePanel·8
	aTmp   = neon.R16
	aTmp2  = neon.R17
	affAcc = neon.VReg(0)  // acc[r][c] = V(r·affVecs + c)
	affW   = neon.VReg(24) // W vectors V24..V29
	affX   = neon.VReg(30)
)

// generateAffineBlocks emits affineBlock<R>NEON for every R in affineRows and
// appends their declarations to the stub file.
func generateAffineBlocks(e *neon.Emitter, st *bytes.Buffer) {
	for _, rows := range affineRows {
		name := fmt.Sprintf("affineBlock%dNEON", rows)
		e.Raw("")
		generateAffineBlock(e, name, rows)
		fmt.Fprintf(st, "\n// %s writes θ = b + x·W for %d rows × np panels (%d lanes per vector); each element is the FMA chain of the pure-Go twin.\n//\n//go:noescape\nfunc %s(t []float64, ldt int, x []float64, ldx, d int, p, b []float64, np int)\n",
			name, rows, lanes, name)
	}
}

func generateAffineBlock(e *neon.Emitter, name string, rows int) {
	e.Raw("// func %s(t []float64, ldt int, x []float64, ldx, d int, p, b []float64, np int)", name)
	e.Raw("TEXT ·%s(SB), NOSPLIT, $0-128", name)
	e.Raw("\tMOVD t_base+0(FP), %v", aT)
	e.Raw("\tMOVD ldt+24(FP), %v", aLdt)
	e.Raw("\tLSL $3, %v, %v", aLdt, aLdt)
	e.Raw("\tMOVD x_base+32(FP), %v", aX)
	e.Raw("\tMOVD ldx+56(FP), %v", aLdx)
	e.Raw("\tLSL $3, %v, %v", aLdx, aLdx)
	e.Raw("\tMOVD d+64(FP), %v", aD)
	e.Raw("\tMOVD p_base+72(FP), %v", aP)
	e.Raw("\tMOVD b_base+96(FP), %v", aB)
	e.Raw("\tMOVD np+120(FP), %v", aNp)
	e.Raw("\tMOVD $%d, %v", 8*affinePanel, aTmp)
	e.Raw("\tMUL %v, %v, %v", aD, aTmp, aStep)
	panel, done := name+"_panel", name+"_done"
	e.Label(panel)
	e.Raw("\tCBZ %v, %s", aNp, done)
	passCols := affVecs * lanes
	for g0 := 0; g0 < rows; g0 += affPassRows {
		nr := min(affPassRows, rows-g0)
		for pass := 0; pass < affinePanel/passCols; pass++ {
			col := 8 * pass * passCols // byte offset of the pass within a panel row
			acc := func(r, c int) neon.VReg { return affAcc + neon.VReg(r*affVecs+c) }
			// acc[r] = b[pass columns] for every row.
			e.Raw("\tADD $%d, %v, %v", col, aB, aTmp)
			e.Raw("\tADD $64, %v, %v", aTmp, aTmp2)
			for r := 0; r < nr; r++ {
				e.LD1(aTmp, acc(r, 0), acc(r, 1), acc(r, 2), acc(r, 3))
				e.LD1(aTmp2, acc(r, 4), acc(r, 5))
			}
			// Row pointers at column 0 of rows g0 … g0+nr−1.
			e.Raw("\tMOVD %v, %v", aX, aRow0)
			for r := 0; r < g0; r++ {
				e.Raw("\tADD %v, %v, %v", aLdx, aRow0, aRow0)
			}
			for r := 1; r < nr; r++ {
				e.Raw("\tADD %v, %v, %v", aLdx, aRow0+neon.GPR(r-1), aRow0+neon.GPR(r))
			}
			loop, end := fmt.Sprintf("%s_k%d_%d", name, g0, pass), fmt.Sprintf("%s_k%d_%d_end", name, g0, pass)
			e.Raw("\tMOVD %v, %v", aD, aK)
			e.Raw("\tCBZ %v, %s", aK, end)
			e.Raw("\tADD $%d, %v, %v", col, aP, aWk)
			e.Label(loop)
			e.LD1Post(aWk, 64, affW, affW+1, affW+2, affW+3)
			e.LD1(aWk, affW+4, affW+5)
			e.Raw("\tADD $%d, %v, %v", 8*affinePanel-64, aWk, aWk) // next row of the panel
			for r := 0; r < nr; r++ {
				e.LD1R(aRow0+neon.GPR(r), affX)
				e.Raw("\tADD $8, %v, %v", aRow0+neon.GPR(r), aRow0+neon.GPR(r))
				for c := 0; c < affVecs; c++ {
					e.FMLA(acc(r, c), affX, affW+neon.VReg(c)) // acc += x[r][k]·W[k][c], one rounding
				}
			}
			e.Raw("\tSUBS $1, %v, %v", aK, aK)
			e.Raw("\tBNE %s", loop)
			e.Label(end)
			// Store row r of the pass at t + (g0+r)·ldt + col.
			e.Raw("\tADD $%d, %v, %v", col, aT, aTr)
			for r := 0; r < g0; r++ {
				e.Raw("\tADD %v, %v, %v", aLdt, aTr, aTr)
			}
			for r := 0; r < nr; r++ {
				e.Raw("\tADD $64, %v, %v", aTr, aTmp)
				e.ST1(aTr, acc(r, 0), acc(r, 1), acc(r, 2), acc(r, 3))
				e.ST1(aTmp, acc(r, 4), acc(r, 5))
				if r+1 < nr {
					e.Raw("\tADD %v, %v, %v", aLdt, aTr, aTr)
				}
			}
		}
	}
	// Next panel: its W rows follow this one's, its columns follow in t and b.
	e.Raw("\tADD %v, %v, %v", aStep, aP, aP)
	e.Raw("\tADD $%d, %v, %v", 8*affinePanel, aT, aT)
	e.Raw("\tADD $%d, %v, %v", 8*affinePanel, aB, aB)
	e.Raw("\tSUB $1, %v, %v", aNp, aNp)
	e.Raw("\tB %s", panel)
	e.Label(done)
	e.Raw("\tRET")
}
