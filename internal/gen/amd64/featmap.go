package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The register-blocked affine kernels (asm/featmap_block.go) compute
// θ[r][c] = b[c] + Σ_k x[r·ldx + k]·W[k][c] for a block of rows × one panel
// of columns at a time, with W re-packed into panels of affinePanel columns
// (panel q holds its d rows of affinePanel values one after another). One
// load of a W vector feeds the FMAs of every row of the block, so the loop
// is bound by the FMA ports rather than by loads, as the one-row kernel is
// (one W load per FMA). Each θ element is still b[c] followed by one FMA per
// k in k order, the chain of the one-row kernel and of the pure-Go twin, so
// the bits are the same; the cosines are a separate in-place pass.

// affinePanel is the panel width in columns: three ZMM or six YMM vectors.
// It must equal asm.affinePanel.
const affinePanel = 24

// affineRows lists the row counts of the generated blocks: the driver covers
// a block of eight rows, and splits a shorter tail into fours, twos and ones.
var affineRows = []int{8, 4, 2, 1}

// affineVecs is how many vectors of columns one pass of the k loop keeps:
// rows × vecs accumulators, plus vecs W vectors and one broadcast of x, must
// fit the register file (32 ZMM: 8×3 + 3 + 1; 16 YMM: 4×3 + 3 + 1, so blocks
// of eight rows run as two passes of four on AVX2).
func affineVecs(isa isa) int { return 3 }

func affineMaxRows(isa isa) int {
	if isa.zmm {
		return 8
	}
	return 4
}

// generateAffineBlocks emits affineBlock<R><ISA> for every R in affineRows:
//
//	func(t []float64, ldt int, x []float64, ldx, d int, p, b []float64, np int)
//
// θ of rows r < R and panels q < np goes to t[r·ldt + q·affinePanel + c];
// row r of the input is x[r·ldx:], panel q is p[q·d·affinePanel:], and b
// holds np·affinePanel phases.
func generateAffineBlocks(isa isa) {
	for _, rows := range affineRows {
		generateAffineBlock(isa, rows)
	}
}

func generateAffineBlock(isa isa, rows int) {
	name := fmt.Sprintf("affineBlock%d%s", rows, isa.name)
	TEXT(name, NOSPLIT, "func(t []float64, ldt int, x []float64, ldx, d int, p, b []float64, np int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes θ = b + x·W for %d rows × np panels (%d lanes per vector); each element is the FMA chain of the pure-Go twin.", name, rows, isa.width))

	vec := func() reg.VecVirtual {
		if isa.zmm {
			return ZMM()
		}
		return YMM()
	}
	t := Load(Param("t").Base(), GP64())
	ldt := Load(Param("ldt"), GP64())
	SHLQ(Imm(3), ldt)
	x0 := Load(Param("x").Base(), GP64())
	ldx := Load(Param("ldx"), GP64())
	SHLQ(Imm(3), ldx)
	d := Load(Param("d"), GP64())
	wp := Load(Param("p").Base(), GP64())
	bp := Load(Param("b").Base(), GP64())
	np := Load(Param("np"), GP64())

	// Rows sit at x + r·ldx: three bases (x, x + 3·ldx, x + 6·ldx) reach
	// eight rows with index scales 1 and 2 of ldx, so each FMA group addresses
	// its row without a register per row.
	ldx3 := GP64()
	LEAQ(Mem{Base: ldx, Index: ldx, Scale: 2}, ldx3)
	bases := []reg.Register{x0}
	for r := 3; r < rows; r += 3 {
		xb := GP64()
		LEAQ(Mem{Base: bases[len(bases)-1], Index: ldx3, Scale: 1}, xb)
		bases = append(bases, xb)
	}
	rowMem := func(r int) Mem {
		m := Mem{Base: bases[r/3]}
		if r%3 > 0 {
			m.Index, m.Scale = ldx, uint8(r%3)
		}
		return m
	}
	dBytes := GP64()
	MOVQ(d, dBytes)
	SHLQ(Imm(3), dBytes)

	vecs := affineVecs(isa)
	maxRows := min(rows, affineMaxRows(isa))
	passCols := vecs * isa.width
	passes := affinePanel / passCols

	panel, done := name+"_panel", name+"_done"
	Label(panel)
	TESTQ(np, np)
	JZ(LabelRef(done))
	for r0 := 0; r0 < rows; r0 += maxRows {
		nr := min(maxRows, rows-r0)
		for pass := 0; pass < passes; pass++ {
			col := pass * passCols // first column of this pass within the panel
			acc := make([][]reg.VecVirtual, nr)
			for r := range acc {
				acc[r] = make([]reg.VecVirtual, vecs)
				for c := range acc[r] {
					acc[r][c] = vec()
					VMOVUPD(Mem{Base: bp, Disp: 8 * (col + c*isa.width)}, acc[r][c])
				}
			}
			loop, end := fmt.Sprintf("%s_k%d_%d", name, r0, pass), fmt.Sprintf("%s_k%d_%d_end", name, r0, pass)
			k, wk := GP64(), GP64()
			MOVQ(d, k)
			MOVQ(wp, wk)
			TESTQ(k, k)
			JZ(LabelRef(end))
			Label(loop)
			wv := make([]reg.VecVirtual, vecs)
			for c := range wv {
				wv[c] = vec()
				VMOVUPD(Mem{Base: wk, Disp: 8 * (col + c*isa.width)}, wv[c])
			}
			for r := 0; r < nr; r++ {
				xb := vec()
				m := rowMem(r0 + r)
				VBROADCASTSD(m, xb)
				for c := 0; c < vecs; c++ {
					VFMADD231PD(wv[c], xb, acc[r][c]) // acc = x[r][k]·W[k][c] + acc, the twin's order
				}
			}
			for _, b := range bases {
				ADDQ(Imm(8), b)
			}
			ADDQ(Imm(8*affinePanel), wk)
			DECQ(k)
			JNZ(LabelRef(loop))
			for _, b := range bases {
				SUBQ(dBytes, b) // back to column 0 of the rows
			}
			Label(end)
			// Store: row r of the block at t + r·ldt.
			tr := GP64()
			MOVQ(t, tr)
			if r0 > 0 {
				off := GP64()
				IMUL3Q(Imm(uint64(r0)), ldt, off)
				ADDQ(off, tr)
			}
			for r := 0; r < nr; r++ {
				for c := 0; c < vecs; c++ {
					VMOVUPD(acc[r][c], Mem{Base: tr, Disp: 8 * (col + c*isa.width)})
				}
				if r+1 < nr {
					ADDQ(ldt, tr)
				}
			}
		}
	}
	// Next panel: its W rows follow this one's, its columns follow in t and b.
	step := GP64()
	IMUL3Q(Imm(affinePanel), dBytes, step)
	ADDQ(step, wp)
	ADDQ(Imm(8*affinePanel), t)
	ADDQ(Imm(8*affinePanel), bp)
	DECQ(np)
	JMP(LabelRef(panel))
	Label(done)
	VZEROUPPER()
	RET()
}
