package main

import (
	"fmt"
	"math"

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

func sumsUnroll(isa isa, p *kernels.Program) int {
	if isa.zmm {
		if p.Name == "sincosStats" {
			// sin and cos of three copies side by side do not fit
			// in 32 ZMM registers ("failed to allocate registers")
			return 2
		}
		return 3
	}
	return 2 // one group of eight: two YMM vectors
}

// generateSums emits the body of reduction p for isa; with f32 (AVX2
// only, the programs of hasPanels) its matrix is float32, column-major,
// widened exactly to float64 as it is loaded (see elemShift).
func generateSums(p *kernels.Program, isa isa, consts *constTable, f32 bool) {
	name := p.Name + isa.name
	what := ""
	if f32 {
		if isa.zmm {
			panic("float32 columns are for the one-group bodies")
		}
		name = p.Name + "32" + isa.name
		what = " over a float32 matrix (widened exactly to float64)"
	}
	blocked := blockedOn(isa, p)
	if blocked {
		// The blocked loop keeps the values that cross its wide ops in a
		// stack area (blockedSlots), too large for a NOSPLIT frame.
		TEXT(name, 0, sumsSignature)
	} else {
		TEXT(name, NOSPLIT, sumsSignature)
	}
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is the %s body of the %s reduction%s: %d lanes per vector; it mirrors the pure-Go twin.", name, isa.name, p.Name, what, isa.width))
	g := &gen{p: p, isa: isa, consts: consts, f32: f32}
	g.frame = Load(Param("f"), GP64())
	g.i = GP64()
	MOVQ(g.fmem(kernels.FrameI), g.i)
	group := kernels.GroupLen / isa.width
	u := sumsUnroll(isa, p)
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
		g.hoistSums()
	}
	last := GP64()
	if blocked {
		bg := g.blockGroups()
		g.slots = blockedSlots(p, bg)
		if !isa.zmm {
			g.pfAhead = pfAheadBlocks * (g.copiesOf(bg) * isa.width) << g.elemShift()
		}
		Label(name + "_block")
		MOVQ(g.fmem(kernels.FrameN), last)
		SUBQ(Imm(uint64(bg*kernels.GroupLen)), last)
		CMPQ(g.i, last)
		if blockTails(p) {
			JG(LabelRef(name + "_tail"))
		} else {
			JG(LabelRef(one))
		}
		g.blockedBody(g.copiesOf(bg), one)
		ADDQ(Imm(uint64(bg*kernels.GroupLen)), g.i)
		JMP(LabelRef(name + "_block"))
		g.blockedTails(name, one)
	} else if u > group {
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

// hoistSums broadcasts, once per call, the parameters of an element-wise
// reduction on AVX-512 and the constant bounds of its Min and Max ops (which
// are not folded as memory operands: see inst), into registers held for the
// whole call, instead of a VBROADCASTSD for every copy and group: the
// one-pass body of three copies then has the registers, and the loop issues
// 2 + 2·3 fewer loads per 24 elements. Measured on the phase kernel (eight
// PhaseSums calls over 4096 elements in cache, the shape of
// exploss.Phase.EvalMany; fastest of 20000 runs, same process for every
// variant): 1.056 ns/element before, 1.010 with the parameters held, 0.990
// with the bounds too; holding also the constants that the exponential's
// FMAs overwrite (invLn2, ln2lo) gave 1.000 (each use then needs a copy).
// The values and the operations are the same, so are the bits.
func (g *gen) hoistSums() {
	for s := 0; s < g.p.Params; s++ {
		r := ZMM()
		VBROADCASTSD(g.fmem(kernels.FramePar+8*s), r)
		g.parRegs = append(g.parRegs, r)
	}
	g.constRegs = map[uint64]reg.VecVirtual{}
	for _, in := range g.p.Insts {
		if in.Op != kernels.OpMin && in.Op != kernels.OpMax {
			continue
		}
		for _, v := range []kernels.V{in.A, in.B} {
			c := g.p.Insts[v]
			if c.Op != kernels.OpConst {
				continue
			}
			if _, ok := g.constRegs[math.Float64bits(c.F)]; !ok {
				r := ZMM()
				VBROADCASTSD(g.consts.ref(c.F), r)
				g.constRegs[math.Float64bits(c.F)] = r
			}
		}
	}
}

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
			if g.parRegs != nil {
				for c := 0; c < u; c++ {
					g.regs[c][i] = g.parRegs[in.Imm]
				}
				continue
			}
			// One broadcast for every copy of the body, read by all and
			// written by none (operand): a register per copy made the two
			// copies of the AVX2 phase search need 18 YMM registers, and
			// the allocator then took Y16 and Y17, which exist only with
			// AVX-512 (an illegal instruction on an AVX2-only machine).
			r := g.vec()
			VBROADCASTSD(g.fmem(kernels.FramePar+8*in.Imm), r)
			for c := 0; c < u; c++ {
				g.regs[c][i] = r
			}
			g.sharedPar = true
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
func (g *gen) accumulate(u, i int, acc Mem, mat reg.Register) {
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
				// t += v·mat (the row at mat, widened in a float32 body)
				VFMADD231PD(g.matOperand(g.matMem(mat, c)), v, t)
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
	mp := g.matPtr(in.Imm)
	vp := g.framePtr(kernels.FrameVec + 8*in.Imm)
	ldb := g.framePtr(kernels.FrameLd)
	SHLQ(Imm(uint64(g.elemShift())), ldb)
	k := GP64()
	XORQ(k, k)
	g.labels++
	loop := fmt.Sprintf("%s%s_dot%d", g.p.Name, g.isa.name, g.labels)
	if g.stash != nil && in.Imm == 0 {
		// The widened rows go to the stash too (see stashRows), when the
		// caller gave one; otherwise the loop below runs without it.
		sp := GP64()
		MOVQ(g.stash, sp)
		TESTQ(sp, sp)
		JZ(LabelRef(loop))
		Label(loop + "_st")
		CMPQ(k, g.fmem(kernels.FrameD))
		JGE(LabelRef(loop + "_end"))
		xk := g.vec()
		VBROADCASTSD(Mem{Base: vp, Index: k, Scale: 8}, xk)
		for c := range acc {
			t := g.vec()
			VCVTPS2PD(g.matMem(mp, c), t)
			VMOVUPD(t, Mem{Base: sp, Disp: 64 * c})
			VFMADD231PD(t, xk, acc[c])
		}
		ADDQ(ldb, mp)
		ADDQ(U32(64*blockGroups), sp)
		INCQ(k)
		JMP(LabelRef(loop + "_st"))
	}
	Label(loop)
	CMPQ(k, g.fmem(kernels.FrameD))
	JGE(LabelRef(loop + "_end"))
	xk := g.vec()
	VBROADCASTSD(Mem{Base: vp, Index: k, Scale: 8}, xk)
	if g.pfAhead > 0 && u > 2 {
		// every line of the column's piece pfAheadBlocks blocks on
		m := g.matMem(mp, 0)
		m.Disp += g.pfAhead
		for l := 0; l < (u*g.isa.width)<<g.elemShift(); l += 64 {
			PREFETCHT0(m)
			m.Disp += 64
		}
	}
	for c := range acc {
		VFMADD231PD(g.matOperand(g.matMem(mp, c)), xk, acc[c])
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
	SHLQ(Imm(uint64(g.elemShift())), ldb)
	k := GP64()
	XORQ(k, k)
	g.labels++
	loop := fmt.Sprintf("%s%s_accdot%d", g.p.Name, g.isa.name, g.labels)
	Label(loop)
	CMPQ(k, g.fmem(kernels.FrameD))
	JGE(LabelRef(loop + "_end"))
	g.accumulate(u, i, Mem{Base: ap}, mp)
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

// The blocked loop of the dot kernels on AVX-512. A one-pass body of
// sumsUnroll copies leaves two costs that dominate at d ≈ 20: its dot products
// are only three FMA chains of length d (the FMA latency, not the ports,
// bounds them), and every row accumulator of OpAccDot is loaded and stored
// for each three groups. The blocked loop takes blockGroups groups (64
// elements) at a time and runs the program segment by segment:
//
//   - a wide op (OpDot, OpBail, OpAccDot) runs for all eight groups at once:
//     OpDot as eight independent FMA chains over k, OpAccDot with each row
//     accumulator loaded once, fed eight FMAs (groups in element order) and
//     stored once, so its memory traffic is a quarter of an FMA's;
//   - each run of element-wise ops between them runs in chunks of
//     blockChunk(p) groups, interleaved instruction by instruction as in the
//     one-pass body; OpAcc adds a chunk's groups in element order.
//
// Values that cross from one segment to another go through a stack slot of
// eight vectors (blockedSlots); parameters and constants are broadcast again
// where needed. Each lane of every accumulator still receives its elements
// in order, so the sums are the bits of the twin. With column-major data the
// eight groups of a matrix row are 512 consecutive bytes, re-read by OpAccDot
// from L1.
const blockGroups = 8

// blockGroupsOf is the number of groups one block of p's blocked loop takes
// (blockGroups; the panel variants always take blockGroups). CosSum takes 13:
// a GBRFF2 model of T = 100 terms has 104 = 13 groups, which then run as
// one block, thirteen independent FMA chains of length d in its dot
// products, instead of a block of eight and a tail of five (five chains,
// which leave the FMA ports idle for most of the latency of each FMA).
func blockGroupsOf(p *kernels.Program) int {
	if p.Name == "cosSum" {
		return 13
	}
	return blockGroups
}

// The blocked loop on AVX2 (the sweep kernels sincosDot and freqStep). A
// group is two YMM vectors there, and the one-pass body of two copies ran
// its dot product as two FMA chains of length d, latency-bound: at d = 20
// in cache the float32 sincosDot sweep took 9.3 ns per element against 2.1
// for its sines and cosines alone. A block of blockGroupsYMM groups is
// eight copies: eight chains, two cache lines of each float32 column per
// block, and OpAccDot loading and storing each row accumulator once per
// block instead of once per group. Sixteen YMM registers hold eight
// accumulators, the broadcast input weight and a widened float32 vector,
// not many more: so four groups, and the element-wise runs one group (two
// copies) at a time, as the one-pass body. The copies of a lane still
// receive their elements in order: the bits of the one-pass body.
const blockGroupsYMM = 4

// pfAheadBlocks is how many blocks ahead the AVX2 blocked dot loop
// prefetches each column of the matrix (every line of the block's piece of
// the column: two in float32, four in float64): a column-major sweep reads
// d streams at once, more than the hardware prefetchers follow. Measured on
// the float32 kernels at d = 20 (asm BenchmarkColumns32, test binaries of
// the one-pass body, the blocked body, and the blocked body with
// prefetches, alternating, two rounds; ns per element): in cache (n = 4096) sincosDot 8.6/7.5 →
// 5.4/4.4 → 4.8/5.9, freqStep 19.4/18.3 → 11.0/9.4 → 9.1/12.4; at n = 10⁵
// sincosDot 6.9/5.9 → 5.1/8.3 → 5.8/5.2, freqStep 18.9/16.5 → 16.5/17.4 →
// 10.7/11.0; at n = 10⁶ (X from memory) sincosDot 11.7/10.7 → 6.6/6.1 and
// freqStep 16.5/15.4 → 13.7/12.7 without and with the prefetches. Float64
// at n = 10⁵ (three runs, two lines then four per column and block):
// sincosDot 14.2–15.2 → 8.8–15.5, freqStep 18.4–24.6 → 18.2–21.2.
const pfAheadBlocks = 8

// blockedOn reports whether p gets the blocked loop on isa.
func blockedOn(isa isa, p *kernels.Program) bool {
	if isa.zmm {
		return hasDot(p)
	}
	return p.Name == "sincosDot" || p.Name == "freqStep"
}

// blockGroups is the number of groups of one block of g's blocked loop.
func (g *gen) blockGroups() int {
	if g.isa.zmm {
		return blockGroupsOf(g.p)
	}
	return blockGroupsYMM
}

// copiesOf is the number of vectors (copies of the body) in groups groups.
func (g *gen) copiesOf(groups int) int { return groups * kernels.GroupLen / g.isa.width }

// chunkCopies is the number of copies a chunk of element-wise ops
// interleaves: blockChunk groups on AVX-512, one group on AVX2.
func (g *gen) chunkCopies() int {
	if g.isa.zmm {
		return blockChunk(g.p)
	}
	return kernels.GroupLen / g.isa.width
}

// blockChunk is the number of groups a chunk of element-wise ops
// interleaves: the widest that avo's greedy allocator fits into 32 ZMM
// registers (four sin/cos bodies side by side do not; "failed to allocate
// registers" is what a too-wide entry gives). Out-of-order execution
// overlaps the independent chunks of a block, but not by much: a sin/cos +
// exp body is ≈ 45 dependent FMA-latency steps, so its throughput grows with
// the bodies interleaved (FreqStep over panels at n = 2048, d = 20, CPU
// time: 6.0 ns/sample with chunks of 1, 5.3 with chunks of 3).
func blockChunk(p *kernels.Program) int {
	switch p.Name {
	case "sincosDot", "freqStep", "cosSum":
		return 3
	}
	return 4
}

// blockTails reports whether p gets blocked tail bodies: after the last
// whole block, the 2…7 groups left run as one blocked body of that many
// groups instead of one group at a time, each group waiting on its chain of
// d FMAs and its cosine. CosSum is called once per row of a prediction on
// a few dozen to a few hundred terms, so its tail is a large part of a call
// (T = 100 terms: 104 = 64 + 40); the sweeps of the other kernels run over
// thousands of elements.
func blockTails(p *kernels.Program) bool { return p.Name == "cosSum" }

// blockedTails emits, for kernels with blockTails, the tail bodies reached
// when fewer than blockGroups groups are left: each runs the rem groups left
// (2 ≤ rem < blockGroups) as one blocked body, then goes on to the one-group
// loop at one (which finds nothing left, or the group a domain check failed
// in). The lanes still receive their elements in order, so the bits are
// those of the one-group body.
func (g *gen) blockedTails(name, one string) {
	if !blockTails(g.p) {
		return
	}
	Label(name + "_tail")
	rem := GP64()
	MOVQ(g.fmem(kernels.FrameN), rem)
	SUBQ(g.i, rem)
	SHRQ(Imm(3), rem) // whole groups left, < blockGroupsOf(p) here
	for groups := blockGroupsOf(g.p) - 1; groups >= 2; groups-- {
		CMPQ(rem, Imm(uint64(groups)))
		JE(LabelRef(fmt.Sprintf("%s_tail%d", name, groups)))
	}
	JMP(LabelRef(one))
	for groups := blockGroupsOf(g.p) - 1; groups >= 2; groups-- {
		Label(fmt.Sprintf("%s_tail%d", name, groups))
		g.blockedBody(g.copiesOf(groups), one)
		ADDQ(Imm(uint64(groups*kernels.GroupLen)), g.i)
		JMP(LabelRef(one))
	}
}

func wideOp(op kernels.Op) bool {
	return op == kernels.OpDot || op == kernels.OpBail || op == kernels.OpAccDot
}

// segments numbers the segments of p: each wide op alone, each maximal run
// of other ops.
func segments(p *kernels.Program) []int {
	seg := make([]int, len(p.Insts))
	s, prevWide := -1, true
	for i, in := range p.Insts {
		w := wideOp(in.Op)
		if w || prevWide {
			s++
		}
		seg[i], prevWide = s, w
	}
	return seg
}

// blockedSlots allocates a stack slot (the values of bg groups) for every
// value read outside its segment, other than constants and parameters.
func blockedSlots(p *kernels.Program, bg int) map[kernels.V]Mem {
	seg := segments(p)
	var need []kernels.V
	seen := map[kernels.V]bool{}
	for i, in := range p.Insts {
		for _, v := range []kernels.V{in.A, in.B, in.C} {
			if v < 0 || seen[v] || seg[v] == seg[i] {
				continue
			}
			if op := p.Insts[v].Op; op == kernels.OpConst || op == kernels.OpParam {
				continue
			}
			seen[v] = true
			need = append(need, v)
		}
	}
	slots := map[kernels.V]Mem{}
	if len(need) == 0 {
		return slots
	}
	base := AllocLocal(len(need) * bg * 64)
	for j, v := range need {
		m := base
		m.Disp += j * bg * 64
		slots[v] = m
	}
	return slots
}

func (g *gen) slot(v kernels.V, c int) Mem {
	m, ok := g.slots[v]
	if !ok {
		panic(fmt.Sprintf("amd64: %s: value %d has no slot", g.p.Name, v))
	}
	m.Disp += 8 * g.isa.width * c
	return m
}

// fetch makes the operands of instruction i that were computed in another
// segment available to copies [c0, c0+w): loaded from their slots, or
// broadcast again for parameters.
func (g *gen) fetch(i, c0, w int, seg []int) {
	in := g.p.Insts[i]
	for _, v := range []kernels.V{in.A, in.B, in.C} {
		if v < 0 || seg[v] == seg[i] {
			continue
		}
		def := g.p.Insts[v]
		if def.Op == kernels.OpConst {
			continue
		}
		var shared reg.VecVirtual
		for c := c0; c < c0+w; c++ {
			if g.regs[c][v] != nil {
				continue
			}
			if def.Op == kernels.OpParam && !g.isa.zmm {
				// one broadcast for the copies of a chunk, as sumsBody
				if shared == nil {
					shared = g.vec()
					VBROADCASTSD(g.fmem(kernels.FramePar+8*def.Imm), shared)
				}
				g.regs[c][v] = shared
				g.sharedPar = true
				continue
			}
			r := g.vec()
			if def.Op == kernels.OpParam {
				VBROADCASTSD(g.fmem(kernels.FramePar+8*def.Imm), r)
			} else {
				VMOVUPD(g.slot(v, c), r)
			}
			g.regs[c][v] = r
		}
	}
}

// fresh forgets the registers of copies [c0, c0+w): a new chunk or wide op
// fetches what it needs, so no virtual register lives across segments.
func (g *gen) fresh(c0, w int) {
	for c := c0; c < c0+w; c++ {
		g.regs[c] = make([]reg.VecVirtual, len(g.p.Insts))
	}
}

// spill stores value i of copies [c0, c0+w) to its slot if it has one.
func (g *gen) spill(i, c0, w int) {
	if _, ok := g.slots[kernels.V(i)]; !ok {
		return
	}
	for c := c0; c < c0+w; c++ {
		VMOVUPD(g.regs[c][i], g.slot(kernels.V(i), c))
	}
}

// blockedBody emits the program for the given number of copies (vectors:
// at most g.copiesOf(g.blockGroups())) from element i; a failed domain
// check jumps to bail before anything is stored.
func (g *gen) blockedBody(copies int, bail string) {
	g.bail = bail
	p := g.p
	seg := segments(p)
	g.regs = make([][]reg.VecVirtual, copies)
	for lo := 0; lo < len(p.Insts); {
		in := p.Insts[lo]
		if wideOp(in.Op) {
			g.fresh(0, copies)
			g.fetch(lo, 0, copies, seg)
			switch in.Op {
			case kernels.OpDot:
				g.frameDot(copies, lo)
			case kernels.OpBail:
				g.domainCheck(lo, copies)
			case kernels.OpAccDot:
				g.blockedAccDot(lo, copies)
			}
			g.spill(lo, 0, copies)
			lo++
			continue
		}
		hi := lo
		for hi < len(p.Insts) && !wideOp(p.Insts[hi].Op) {
			hi++
		}
		for _, ch := range chunks(copies, g.chunkCopies()) {
			c0, w := ch[0], ch[1]
			g.fresh(c0, w)
			for i := lo; i < hi; i++ {
				g.fetch(i, c0, w, seg)
				g.blockedInst(i, c0, w)
				g.spreadPrefetch()
				g.spill(i, c0, w)
			}
		}
		lo = hi
	}
}

// chunks splits groups into the fewest chunks of at most max groups, as
// even as possible, the wider first (8 by 3: 3, 3, 2; 13 by 3: 3, 3, 3, 2, 2
// rather than 3, 3, 3, 3, 1), as {first group, width} in group order: a
// chunk of one group is a single dependency chain that ends its block alone.
func chunks(groups, max int) [][2]int {
	k := (groups + max - 1) / max
	out := make([][2]int, 0, k)
	c0 := 0
	for j := 0; j < k; j++ {
		w := groups / k
		if j < groups%k {
			w++
		}
		out = append(out, [2]int{c0, w})
		c0 += w
	}
	return out
}

// blockedInst emits element-wise instruction i for copies [c0, c0+w).
func (g *gen) blockedInst(i, c0, w int) {
	in := g.p.Insts[i]
	switch in.Op {
	case kernels.OpLoad:
		ptr := g.framePtr(kernels.FrameIn + 8*in.Imm)
		for c := c0; c < c0+w; c++ {
			r := g.vec()
			VMOVUPD(g.mem(ptr, c), r)
			g.regs[c][i] = r
		}
	case kernels.OpStore:
		ptr := g.framePtr(kernels.FrameOut + 8*in.Imm)
		for c := c0; c < c0+w; c++ {
			a, _ := g.operand(c, in.A, i)
			VMOVUPD(a, g.mem(ptr, c))
		}
	case kernels.OpParam:
		if !g.isa.zmm {
			// one broadcast for the copies of the chunk, as sumsBody
			r := g.vec()
			VBROADCASTSD(g.fmem(kernels.FramePar+8*in.Imm), r)
			for c := c0; c < c0+w; c++ {
				g.regs[c][i] = r
			}
			g.sharedPar = true
			return
		}
		for c := c0; c < c0+w; c++ {
			r := g.vec()
			VBROADCASTSD(g.fmem(kernels.FramePar+8*in.Imm), r)
			g.regs[c][i] = r
		}
	case kernels.OpAcc:
		// One load and store per chunk and vector of lanes; the copies of
		// those lanes (c mod group) in element order. c0 is a whole group.
		ptr := g.framePtr(kernels.FrameAcc)
		group := kernels.GroupLen / g.isa.width
		for h := 0; h < group; h++ {
			acc := Mem{Base: ptr, Disp: 64*in.Imm + 8*g.isa.width*h}
			t := g.vec()
			VMOVUPD(acc, t)
			for c := c0 + h; c < c0+w; c += group {
				v, _ := g.operand(c, in.A, i)
				VADDPD(v, t, t)
			}
			VMOVUPD(t, acc)
		}
	case kernels.OpSelOdd:
		if !g.isa.zmm {
			for c := c0; c < c0+w; c++ {
				g.inst(c, i)
			}
			return
		}
		// As g.inst, but the destination is written by a move first: avo
		// reads the destination of a masked VBLENDMPD as an input (merge
		// masking), which makes every blend result live from the
		// function's entry and exhausts the ZMM file. (A zero idiom would
		// not do: avo sees it read its destination too.)
		for c := c0; c < c0+w; c++ {
			k, _ := g.operand(c, in.A, i)
			x, _ := g.operand(c, in.B, i)
			y, _ := g.operand(c, in.C, i)
			d := g.vec()
			VMOVAPD(y, d)
			m := K()
			VPTESTMQ_BCST(g.consts.ref(math.Float64frombits(1)), k, m)
			VBLENDMPD(x, y, m, d) // d = m ? x : y
			g.regs[c][i] = d
		}
	default:
		for c := c0; c < c0+w; c++ {
			g.inst(c, i)
		}
	}
}

// blockedAccDot is OpAccDot (instruction i) for the copies of a block:
// row accumulator k gains value_c·mat[k·ld + i + c·width] for each copy c
// in order, into its vector of lanes c mod (GroupLen/width) (one chain of
// FMAs per row and vector of lanes, as accDot). Rows run side by side
// (accDotRows), so independent chains are in flight in the instruction
// stream rather than one after another, and each row accumulator is loaded
// and stored once per block; a one-row loop finishes the rows left.
func (g *gen) blockedAccDot(i, copies int) {
	in := g.p.Insts[i]
	r := make([]reg.VecVirtual, copies)
	for c := range r {
		r[c], _ = g.operand(c, in.A, i)
	}
	group := kernels.GroupLen / g.isa.width // vectors per row accumulator
	vb := 8 * g.isa.width                   // bytes per vector of lanes
	rowsSide := g.accDotRows()
	ld := g.framePtr(kernels.FrameLd)
	SHLQ(Imm(uint64(g.elemShift())), ld) // row stride in bytes
	p0 := g.matPtr(in.Imm)
	LEAQ(Mem{Base: p0, Index: g.i, Scale: uint8(1) << g.elemShift()}, p0) // row 0 of the block
	cb := g.isa.width << g.elemShift()                                    // bytes per copy of a row
	p1 := GP64()
	LEAQ(Mem{Base: p0, Index: ld, Scale: 1}, p1) // row 1
	ldR := GP64()
	MOVQ(ld, ldR)
	SHLQ(Imm(uint64(log2(rowsSide))), ldR)
	ap := g.framePtr(kernels.FrameAccM + 8*in.Imm)
	k := GP64()
	MOVQ(g.fmem(kernels.FrameD), k)
	g.labels++
	four := fmt.Sprintf("%s%s_accdot%d", g.p.Name, g.isa.name, g.labels)
	one, end := four+"_one", four+"_end"
	if g.stash != nil && in.Imm == 0 {
		g.stashAccDot(r, copies, ap, k, four)
	}
	Label(four)
	CMPQ(k, Imm(uint64(rowsSide)))
	JL(LabelRef(one))
	rows := []Mem{{Base: p0}, {Base: p1}, {Base: p0, Index: ld, Scale: 2}, {Base: p1, Index: ld, Scale: 2}}[:rowsSide]
	t := make([][]reg.VecVirtual, rowsSide)
	for j := range t {
		t[j] = make([]reg.VecVirtual, group)
		for h := range t[j] {
			t[j][h] = g.vec()
			VMOVUPD(Mem{Base: ap, Disp: 64*j + vb*h}, t[j][h])
		}
	}
	for c := 0; c < copies; c++ {
		for j, row := range rows {
			row.Disp += cb * c
			VFMADD231PD(g.matOperand(row), r[c], t[j][c%group]) // t_j += value_c·mat, copies in element order
		}
	}
	for j := range t {
		for h := range t[j] {
			VMOVUPD(t[j][h], Mem{Base: ap, Disp: 64*j + vb*h})
		}
	}
	ADDQ(ldR, p0)
	ADDQ(ldR, p1)
	ADDQ(U32(rowsSide*64), ap)
	SUBQ(Imm(uint64(rowsSide)), k)
	JMP(LabelRef(four))
	Label(one)
	TESTQ(k, k)
	JZ(LabelRef(end))
	t0 := make([]reg.VecVirtual, group)
	for h := range t0 {
		t0[h] = g.vec()
		VMOVUPD(Mem{Base: ap, Disp: vb * h}, t0[h])
	}
	for c := 0; c < copies; c++ {
		VFMADD231PD(g.matOperand(Mem{Base: p0, Disp: cb * c}), r[c], t0[c%group])
	}
	for h := range t0 {
		VMOVUPD(t0[h], Mem{Base: ap, Disp: vb * h})
	}
	ADDQ(ld, p0)
	ADDQ(Imm(64), ap)
	DECQ(k)
	JMP(LabelRef(one))
	Label(end)
}

// accDotRows is the number of rows blockedAccDot runs side by side: four on
// AVX-512; two on AVX2, where a row accumulator is two vectors and the
// eight copies of a block hold eight of the sixteen registers.
func (g *gen) accDotRows() int {
	if g.isa.zmm {
		return 4
	}
	return 2
}

// The panel variants of the blocked reductions (AVX-512 only): the matrices
// are stored in panels of blockGroups·GroupLen (64) elements × d, each panel
// column-major (ld = 64) and the panels one after another, so element (k, i)
// of matrix m is at mat_m[(i/64)·64·d + k·64 + i%64]: the layout of
// exploss.Data. One call sweeps every whole panel from f.i (a multiple of
// 64) to f.n with the body of the blocked loop, so it computes the bits of
// one call per panel; a block that fails a domain check stops it there (the
// caller runs that panel through the one-panel path).
//
// While a block computes, it prefetches the next panel of matrix 0 with
// prefetchSlots PREFETCHT0s spread evenly through its element-wise code,
// one every ⌈panel/prefetchSlots⌉ bytes (every fifth line at d = 20; the
// hardware prefetchers fetch the lines between). Without them the loads of a
// panel come in one burst at the start of its block (the dot loop) and none
// for the rest of it, so the hardware prefetchers, which run only a few
// lines ahead of demand, leave each block waiting for most of its panel
// once X no longer fits the caches. Measured on the FreqStep sweep at
// n = 10⁵, d = 20 (BenchmarkFreqStepSumsPanels, fastest iteration, loaded
// machine): 8.3–8.5 ns/element without prefetches or with them issued in a
// burst in the dot loop; 6.6–6.7 with 32 or 64 spread slots one or two
// panels ahead; 7.3 with 16; 9.7 with 128 (prefetching every other line
// exhausts the line-fill buffers).
const prefetchSlots = 32

// hasPanels reports whether p gets a panel variant: the reductions whose
// matrices exploss stores in panels.
func hasPanels(p *kernels.Program) bool { return p.Name == "freqStep" || p.Name == "sincosDot" }

func generatePanels(p *kernels.Program, consts *constTable, f32 bool) {
	isa := avx512
	name := p.Name + "Panels" + isa.name
	what := "float64"
	if f32 {
		name = p.Name + "Panels32" + isa.name
		what = "float32 (widened exactly to float64)"
	}
	TEXT(name, 0, sumsSignature)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is the %s body of the %s reduction over panels of 64 %s elements (f.i a multiple of 64): it stops at the first block that fails a domain check, or before the last partial panel.", name, isa.name, p.Name, what))
	g := &gen{p: p, isa: isa, consts: consts, f32: f32}
	g.frame = Load(Param("f"), GP64())
	g.i = GP64()
	MOVQ(g.fmem(kernels.FrameI), g.i)
	g.panBytes = GP64() // bytes per panel: d·64·(8 or 4)
	MOVQ(g.fmem(kernels.FrameD), g.panBytes)
	SHLQ(Imm(uint64(6+g.elemShift())), g.panBytes)
	for m := 0; m < p.Mats; m++ {
		// pan_m = mat_m + (i/64)·panBytes: the panel of element i.
		r := GP64()
		MOVQ(g.i, r)
		SHRQ(Imm(6), r)
		IMULQ(g.panBytes, r)
		ADDQ(g.fmem(kernels.FrameMat+8*m), r)
		g.pan = append(g.pan, r)
	}
	if f32 && stashRows(p) {
		g.stash = GP64()
		MOVQ(g.fmem(kernels.FrameMat+8), g.stash)
	}
	g.slots = blockedSlots(p, blockGroups)
	done := name + "_done"
	last := GP64()
	Label(name + "_block")
	MOVQ(g.fmem(kernels.FrameN), last)
	SUBQ(Imm(uint64(blockGroups*kernels.GroupLen)), last)
	CMPQ(g.i, last)
	JG(LabelRef(done))
	// pf walks the next panel in steps of ⌈panBytes/prefetchSlots⌉
	// rounded up to a line.
	g.pf = GP64()
	MOVQ(g.panBytes, g.pf)
	ADDQ(g.pan[0], g.pf)
	g.pfStep = GP64()
	MOVQ(g.panBytes, g.pfStep)
	ADDQ(U32(64*prefetchSlots-1), g.pfStep)
	SHRQ(Imm(uint64(log2(64*prefetchSlots))), g.pfStep)
	SHLQ(Imm(6), g.pfStep)
	g.pfEvery = max(1, countElementwise(p)/prefetchSlots)
	g.pfLeft, g.pfCount = prefetchSlots, 0
	g.blockedBody(blockGroups, done)
	for _, r := range g.pan {
		ADDQ(g.panBytes, r)
	}
	ADDQ(Imm(uint64(blockGroups*kernels.GroupLen)), g.i)
	JMP(LabelRef(name + "_block"))
	Label(done)
	Store(g.i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// matPtr returns a register holding the base of matrix m such that element
// (k, i) of the block is at base + 8·(k·ld + i): the frame's pointer, or in a
// panel variant that of the current panel less 8·i.
func (g *gen) matPtr(m int) reg.GPVirtual {
	if g.pan == nil {
		return g.framePtr(kernels.FrameMat + 8*m)
	}
	r := GP64()
	MOVQ(g.i, r)
	SHLQ(Imm(uint64(g.elemShift())), r)
	NEGQ(r)
	ADDQ(g.pan[m], r)
	return r
}

func log2(x int) int {
	n := 0
	for x > 1 {
		x >>= 1
		n++
	}
	return n
}

// countElementwise is the number of blockedInst calls of one block.
func countElementwise(p *kernels.Program) int {
	n := 0
	for _, in := range p.Insts {
		if !wideOp(in.Op) && in.Op != kernels.OpConst {
			n += (blockGroups + blockChunk(p) - 1) / blockChunk(p)
		}
	}
	return n
}

// spreadPrefetch is called after each element-wise instruction of a panel
// variant's block: every pfEvery-th call emits the next prefetch slot.
func (g *gen) spreadPrefetch() {
	if g.pf == nil || g.pfLeft == 0 {
		return
	}
	g.pfCount++
	if g.pfCount%g.pfEvery != 0 {
		return
	}
	PREFETCHT0(Mem{Base: g.pf})
	ADDQ(g.pfStep, g.pf)
	g.pfLeft--
}

// The float32 panel variants (FreqStepSumsPanels32, SincosDotPanels32) read
// their matrix as float32 and widen every element exactly to float64
// (VCVTPS2PD) before the FMA that uses it, so they compute the bits of the
// float64 variant over the widened values with half the bytes of X per
// element: at d = 20, 80 B instead of 160 B per sample, the traffic that
// bounds the frequency step once X leaves the caches.

// elemShift is log2 of the bytes per matrix element.
func (g *gen) elemShift() int {
	if g.f32 {
		return 2
	}
	return 3
}

// matMem is g.mem for matrix elements: element i + c·width of the row at
// base.
func (g *gen) matMem(base reg.Register, c int) Mem {
	if !g.f32 {
		return g.mem(base, c)
	}
	return Mem{Base: base, Index: g.i, Scale: 4, Disp: 4 * c * g.isa.width}
}

// matOperand is the FMA operand for the matrix elements at m: m itself, or
// in a float32 variant a register holding them widened to float64.
func (g *gen) matOperand(m Mem) Op {
	if !g.f32 {
		return m
	}
	t := g.vec()
	VCVTPS2PD(m, t)
	return t
}

// The stash of the float32 FreqStep panel variant. Its dot loop widens every
// element of the panel (VCVTPS2PD: two µops on the FMA ports, the cost of
// two FMAs) and its OpAccDot needs the same elements again. With a stash (a
// 64·d float64 buffer that the caller passes in frame slot mat[1], nil for
// none) the dot loop also stores each widened vector there, and OpAccDot
// reads them back from L1 as the memory operand of its FMAs instead of
// widening them a second time: a third of the FMA-port µops of the dot and
// row sums go. The values and the order of the FMAs are those of the
// widening path, so the bits are the same. Measured (one process,
// alternating old and new kernels, fastest of 300 runs; asm
// BenchmarkFreqStepSumsPanels shapes): 15.5 → 12.9 cycles per element in
// cache, 16.5 → 14.1 at n = 98304.
func stashRows(p *kernels.Program) bool { return p.Name == "freqStep" }

// stashAccDot emits the stash form of blockedAccDot's loops: when the stash
// pointer is set, rows k…k+3 (then one by one) of the block are read from
// stash + 512·k + 64·c and the code jumps to the end label; when it is nil,
// it falls through to the widening loops that follow (label four).
func (g *gen) stashAccDot(r []reg.VecVirtual, groups int, ap, k reg.GPVirtual, four string) {
	sp := GP64()
	MOVQ(g.stash, sp)
	TESTQ(sp, sp)
	JZ(LabelRef(four))
	sfour, sone, end := four+"_s4", four+"_s1", four+"_end"
	Label(sfour)
	CMPQ(k, Imm(4))
	JL(LabelRef(sone))
	t := make([]reg.VecVirtual, 4)
	for j := range t {
		t[j] = g.vec()
		VMOVUPD(Mem{Base: ap, Disp: 64 * j}, t[j])
	}
	for c := 0; c < groups; c++ {
		for j := range t {
			// t_j += value_c·row, groups in element order (as the
			// widening loop; the product commutes exactly).
			VFMADD231PD(Mem{Base: sp, Disp: 64*blockGroups*j + 64*c}, r[c], t[j])
		}
	}
	for j := range t {
		VMOVUPD(t[j], Mem{Base: ap, Disp: 64 * j})
	}
	ADDQ(U32(4*64*blockGroups), sp)
	ADDQ(U32(4*64), ap)
	SUBQ(Imm(4), k)
	JMP(LabelRef(sfour))
	Label(sone)
	TESTQ(k, k)
	JZ(LabelRef(end))
	t0 := g.vec()
	VMOVUPD(Mem{Base: ap}, t0)
	for c := 0; c < groups; c++ {
		VFMADD231PD(Mem{Base: sp, Disp: 64 * c}, r[c], t0)
	}
	VMOVUPD(t0, Mem{Base: ap})
	ADDQ(U32(64*blockGroups), sp)
	ADDQ(Imm(64), ap)
	DECQ(k)
	JMP(LabelRef(sone))
}
