package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/rfkit/rfkit/internal/gen/kernels"
)

// Reduction kernels (kernels/reduce.go) read everything through a frame
// pointer. A group of eight elements is 8/width vectors; copy c of an
// unrolled body handles elements i + c·width and feeds the accumulator lanes
// (c mod groupVecs)·width …, so each lane still sees its elements in order.

// sumsSignature is the Go declaration: the frame as 21 words.
const sumsSignature = "func(f *[21]uint64) int"

func sumsUnroll(isa isa) int {
	if isa.zmm {
		return 3
	}
	return 2 // one group of eight: two YMM vectors
}

func generateSums(p *kernels.Program, isa isa, consts *constTable) {
	name := p.Name + isa.name
	TEXT(name, NOSPLIT, sumsSignature)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is the %s body of the %s reduction: %d lanes per vector; it mirrors the pure-Go twin.", name, isa.name, p.Name, isa.width))
	g := &gen{p: p, isa: isa, consts: consts}
	g.frame = Load(Param("f"), GP64())
	g.i = GP64()
	MOVQ(g.fmem(kernels.FrameI), g.i)
	group := kernels.GroupLen / isa.width
	u := sumsUnroll(isa)
	done, one := name+"_done", name+"_one"
	// On AVX-512 a group is one vector, so the lane accumulators can stay in
	// registers for the whole call (loaded here, stored at the end): no
	// store-to-load forwarding on the accumulation chain. Kernels with dot
	// products need those registers for their unrolled bodies.
	if isa.zmm && !hasDot(p) {
		ptr := g.framePtr(kernels.FrameAcc)
		for s := 0; s < p.Accs; s++ {
			r := ZMM()
			VMOVUPD(Mem{Base: ptr, Disp: 64 * s}, r)
			g.accRegs = append(g.accRegs, r)
		}
	}
	last := GP64()
	if u > group {
		Label(name + "_many")
		MOVQ(g.fmem(kernels.FrameN), last)
		SUBQ(Imm(uint64(u*isa.width)), last)
		CMPQ(g.i, last)
		JG(LabelRef(one))
		g.sumsBody(u, one)
		ADDQ(Imm(uint64(u*isa.width)), g.i)
		JMP(LabelRef(name + "_many"))
	}
	Label(one)
	MOVQ(g.fmem(kernels.FrameN), last)
	SUBQ(Imm(kernels.GroupLen), last)
	CMPQ(g.i, last)
	JG(LabelRef(done))
	g.sumsBody(group, done)
	ADDQ(Imm(kernels.GroupLen), g.i)
	JMP(LabelRef(one))

	Label(done)
	if len(g.accRegs) > 0 {
		ptr := g.framePtr(kernels.FrameAcc)
		for s, r := range g.accRegs {
			VMOVUPD(r, Mem{Base: ptr, Disp: 64 * s})
		}
	}
	Store(g.i, ReturnIndex(0))
	VZEROUPPER() // leave no dirty upper halves for Go's SSE code
	RET()
}

func (g *gen) fmem(off int) Mem { return Mem{Base: g.frame, Disp: off} }

// framePtr loads the pointer at frame offset off.
func (g *gen) framePtr(off int) reg.GPVirtual {
	r := GP64()
	MOVQ(g.fmem(off), r)
	return r
}

func (g *gen) sumsBody(u int, bail string) {
	g.bail = bail
	g.regs = make([][]reg.VecVirtual, u)
	for c := range g.regs {
		g.regs[c] = make([]reg.VecVirtual, len(g.p.Insts))
	}
	for i, in := range g.p.Insts {
		switch in.Op {
		case kernels.OpLoad:
			ptr := g.framePtr(kernels.FrameIn + 8*in.Imm)
			for c := 0; c < u; c++ {
				r := g.vec()
				VMOVUPD(g.mem(ptr, c), r)
				g.regs[c][i] = r
			}
		case kernels.OpStore:
			ptr := g.framePtr(kernels.FrameOut + 8*in.Imm)
			for c := 0; c < u; c++ {
				a, _ := g.operand(c, in.A, i)
				VMOVUPD(a, g.mem(ptr, c))
			}
		case kernels.OpParam:
			for c := 0; c < u; c++ {
				r := g.vec()
				VBROADCASTSD(g.fmem(kernels.FramePar+8*in.Imm), r)
				g.regs[c][i] = r
			}
		case kernels.OpBail:
			g.domainCheck(i, u)
		case kernels.OpDot:
			g.frameDot(u, i)
		case kernels.OpAcc:
			if g.accRegs != nil {
				for c := 0; c < u; c++ {
					v, _ := g.operand(c, in.A, i)
					VADDPD(v, g.accRegs[in.Imm], g.accRegs[in.Imm])
				}
				continue
			}
			ptr := g.framePtr(kernels.FrameAcc)
			g.accumulate(u, i, Mem{Base: ptr, Disp: 64 * in.Imm}, nil)
		case kernels.OpAccDot:
			g.accDot(u, i)
		default:
			for c := 0; c < u; c++ {
				g.inst(c, i)
			}
		}
	}
}

// accumulate adds the value of instruction i (copy c) into the lane
// accumulator at acc, or — with mat set — its product with the matrix row
// at mat: one load and one store per group of lanes, the copies of a group
// applied in element order.
func (g *gen) accumulate(u, i int, acc Mem, mat *Mem) {
	in := g.p.Insts[i]
	group := kernels.GroupLen / g.isa.width
	for l := 0; l < group && l < u; l++ {
		lane := acc
		lane.Disp += 8 * l * g.isa.width
		t := g.vec()
		VMOVUPD(lane, t)
		for c := l; c < u; c += group {
			v, _ := g.operand(c, in.A, i)
			if mat != nil {
				m := *mat
				m.Disp += 8 * c * g.isa.width
				VFMADD231PD(m, v, t) // t += v·mat
			} else {
				VADDPD(v, t, t)
			}
		}
		VMOVUPD(t, lane)
	}
}

// frameDot is OpDot for u copies: acc = init, then acc = fma(vec[k],
// mat[k·ld + i…], acc) for k < d.
func (g *gen) frameDot(u, i int) {
	in := g.p.Insts[i]
	acc := make([]reg.VecVirtual, u)
	for c := range acc {
		acc[c] = g.vec()
		if in.A < 0 {
			VXORPD(acc[c], acc[c], acc[c])
			continue
		}
		init, _ := g.operand(c, in.A, i)
		VMOVAPD(init, acc[c])
	}
	mp := g.framePtr(kernels.FrameMat + 8*in.Imm)
	vp := g.framePtr(kernels.FrameVec + 8*in.Imm)
	ldb := g.framePtr(kernels.FrameLd)
	SHLQ(Imm(3), ldb)
	k := GP64()
	XORQ(k, k)
	g.labels++
	loop := fmt.Sprintf("%s%s_dot%d", g.p.Name, g.isa.name, g.labels)
	Label(loop)
	CMPQ(k, g.fmem(kernels.FrameD))
	JGE(LabelRef(loop + "_end"))
	xk := g.vec()
	VBROADCASTSD(Mem{Base: vp, Index: k, Scale: 8}, xk)
	for c := range acc {
		VFMADD231PD(g.mem(mp, c), xk, acc[c])
	}
	ADDQ(ldb, mp)
	INCQ(k)
	JMP(LabelRef(loop))
	Label(loop + "_end")
	for c := range acc {
		g.regs[c][i] = acc[c]
	}
}

// accDot is OpAccDot for u copies: for k < d, row accumulator k of matrix m
// gains value·mat[k·ld + i…].
func (g *gen) accDot(u, i int) {
	in := g.p.Insts[i]
	mp := g.framePtr(kernels.FrameMat + 8*in.Imm)
	ap := g.framePtr(kernels.FrameAccM + 8*in.Imm)
	ldb := g.framePtr(kernels.FrameLd)
	SHLQ(Imm(3), ldb)
	k := GP64()
	XORQ(k, k)
	g.labels++
	loop := fmt.Sprintf("%s%s_accdot%d", g.p.Name, g.isa.name, g.labels)
	Label(loop)
	CMPQ(k, g.fmem(kernels.FrameD))
	JGE(LabelRef(loop + "_end"))
	row := g.mem(mp, 0)
	g.accumulate(u, i, Mem{Base: ap}, &row)
	ADDQ(ldb, mp)
	ADDQ(Imm(8*kernels.GroupLen), ap)
	INCQ(k)
	JMP(LabelRef(loop))
	Label(loop + "_end")
}

func hasDot(p *kernels.Program) bool {
	for _, in := range p.Insts {
		if in.Op == kernels.OpDot || in.Op == kernels.OpAccDot {
			return true
		}
	}
	return false
}
