package main

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/gen/kernels"
	"github.com/rfkit/rfkit/internal/gen/neon"
)

// Reduction kernels (kernels/reduce.go, Program.Reduce) take
// func(f *[21]uint64) int and read everything through the frame pointer: the
// streams, matrices, vectors and accumulators at the kernels.Frame* offsets.
// A group of eight elements is four vectors; copy c of a body handles
// elements i + 2c, i + 2c + 1 and feeds the accumulator lanes at byte offset
// 16·(c mod 4) of every 64-byte accumulator row, the copies of one row
// applied in element order, so each lane sees its elements in order.
//
// The functions have the shape of the amd64 ones: a loop over two groups
// (when the plan has it), whose failed domain check falls back to the
// one-group loop, which stops exactly before a group that fails; they return
// the element index they stopped at. Nothing is stored or accumulated before
// a group's check, and every address is formed afresh from the frame and 8·i,
// so a failed group needs no rewinding.
//
// A whole group must pass its domain check before anything is stored, but
// four interleaved copies of a trig or exp body do not fit in 32 registers.
// So the wide ops — the domain check and the loops over matrix rows (OpDot,
// OpAccDot), whose cost per FMLA falls with the copies they serve — run for
// every copy of the body at once, and the runs of element-wise ops between
// them in chunks of copies, chunk after chunk in copy order, each chunk
// interleaved instruction by instruction as in the element-wise kernels.
// Only the few values that cross a wide op (a dot product, a term) are held
// for the other chunks.
//
// Accumulators live in memory: the part of a row an instruction feeds is
// loaded, updated and stored back once per chunk (per matrix row k for the
// row accumulators), which keeps the register pressure that of the
// element-wise ops. A chunk's vectors of a stream, a matrix row or an
// accumulator row are moved by one LD1/ST1 of up to four consecutive
// registers where the allocator finds them free.

// sumsSignature is the Go declaration: the frame as 21 words.
const sumsSignature = "func(f *[21]uint64) int"

// General purpose registers of the reduction bodies. R4..R10 keep their
// element-wise roles (rI is the element index, rEnd the bound scratch; rTbl,
// rAddr, rLane0/1 and rParam as there).
const (
	sFrame = neon.R0  // f
	sOff   = neon.R1  // 8·i: the byte offset of the group in a stream
	sN     = neon.R2  // f.n
	sPtr   = neon.R11 // stream or accumulator pointer (post-incremented)
	sK     = neon.R12 // rows left in a dot / row-accumulator loop
	sStep  = neon.R13 // the row stride in bytes, less the bytes a row load advances
	sRow   = neon.R14 // &mat[k·ld + i + 2·(first copy)] (advanced)
	sVec   = neon.R15 // &vec[k] or &accm[k][0] (advanced)
)

// groupVecs is the number of vectors in a group of kernels.GroupLen elements.
const groupVecs = kernels.GroupLen / lanes

// sumsPlan is how one reduction is built: the vectors per loop iteration
// (plan.unroll, whole groups), the copies interleaved between the wide ops
// (chunk, dividing unroll) and the constants held in registers.
type sumsPlan struct {
	plan
	chunk int
}

// chooseSums holds as many constants in registers as chunks of two copies
// (the interleave of the element-wise kernels) allow, or chunks of one when
// two do not fit, and then takes the widest body that keeps those constants:
// wider chunks first, then two groups per iteration (only for programs with
// wide ops: without them two groups of chunks repeat the one-group body).
// Widening costs no constant reloads that way; a dot-only kernel (no
// constants) gets eight interleaved copies, a trig body keeps chunks of two.
func chooseSums(p *kernels.Program, consts *constTable) sumsPlan {
	cs := constUses(p)
	hasWide := false
	for _, in := range p.Insts {
		hasWide = hasWide || wide(in.Op)
	}
	hoist := -1
	for _, w := range []int{2, 1} {
		for k := len(cs); k >= 0 && hoist < 0; k-- {
			if fitsSums(p, consts, sumsPlan{plan{groupVecs, cs[:k]}, w}) {
				hoist = k
			}
		}
		if hoist >= 0 {
			break
		}
	}
	if hoist < 0 {
		panic("arm64: " + p.Name + ": one group does not fit in 32 registers")
	}
	for _, c := range [][2]int{{8, 8}, {8, 4}, {4, 4}, {8, 2}, {4, 2}, {8, 1}, {4, 1}} {
		if c[0] > groupVecs && c[1] < c[0] && !hasWide {
			continue
		}
		pl := sumsPlan{plan{c[0], cs[:hoist]}, c[1]}
		if fitsSums(p, consts, pl) {
			return pl
		}
	}
	panic("arm64: " + p.Name + ": unreachable")
}

func fitsSums(p *kernels.Program, consts *constTable, pl sumsPlan) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(errNoReg); !is {
				panic(r)
			}
			ok = false
		}
	}()
	emitSums(neon.New(), p, consts, pl)
	return true
}

// emitSums emits reduction p with plan pl.
func emitSums(e *neon.Emitter, p *kernels.Program, consts *constTable, pl sumsPlan) {
	name := p.Name + "NEON"
	g := &gen{e: e, p: p, consts: consts, name: name, hoisted: map[uint64]neon.VReg{}}
	e.Raw("// func %s%s", name, sumsSignature[len("func"):])
	e.Raw("// %d vectors per main-loop iteration, element-wise ops in chunks of %d, %d constants held in registers",
		pl.unroll, pl.chunk, len(pl.hoisted))
	e.Raw("TEXT ·%s(SB), NOSPLIT, $0-16", name)
	e.Raw("\tMOVD f+0(FP), %v", sFrame)
	e.Raw("\tMOVD %d(%v), %v", kernels.FrameI, sFrame, rI)
	e.Raw("\tMOVD %d(%v), %v", kernels.FrameN, sFrame, sN)
	e.Raw("\tMOVD $%s<>(SB), %v", consts.name, rTbl)
	for i := 0; i < p.Params; i++ {
		r := g.allocTop()
		e.Raw("\tMOVD %d(%v), %v", kernels.FramePar+8*i, sFrame, rParam)
		e.DUP(r, rParam)
		g.params = append(g.params, r)
	}
	for _, c := range pl.hoisted {
		r := g.allocTop()
		g.loadConst(c, r)
		g.hoisted[math.Float64bits(c)] = r
	}

	done, one, many := name+"_done", name+"_one", name+"_many"
	loop := func(label, exit string, u int) {
		n := u * lanes
		e.Label(label)
		e.Raw("\tADD $%d, %v, %v", n, rI, rEnd)
		e.Raw("\tCMP %v, %v", sN, rEnd)
		e.Raw("\tBGT %s", exit)
		e.Raw("\tLSL $3, %v, %v", rI, sOff)
		g.sumsBody(u, min(pl.chunk, u), exit)
		e.Raw("\tADD $%d, %v, %v", n, rI, rI)
		e.Raw("\tB %s", label)
	}
	if pl.unroll > groupVecs {
		loop(many, one, pl.unroll) // a failed check leaves the groups to the one-group loop
	}
	loop(one, done, groupVecs)
	e.Label(done)
	e.Raw("\tMOVD %v, ret+8(FP)", rI)
	e.Raw("\tRET")
}

// wide reports whether op runs for every copy of a body at once: the
// domain check, which must pass for the whole body before anything is
// stored, and the loops over matrix rows, whose cost per FMLA falls with the
// number of copies.
func wide(op kernels.Op) bool {
	return op == kernels.OpBail || op == kernels.OpDot || op == kernels.OpAccDot
}

// sumsBody emits reduction p for u vectors (whole groups) from element i:
// the wide ops for all u copies, the runs of other ops between them in
// chunks of w copies; a failed domain check jumps to bail.
func (g *gen) sumsBody(u, w int, bail string) {
	if u%groupVecs != 0 || u%w != 0 {
		panic(fmt.Sprintf("arm64: %s: %d vectors in chunks of %d", g.name, u, w))
	}
	g.bail = bail
	g.regs = make([][]neon.VReg, u)
	for c := range g.regs {
		g.regs[c] = make([]neon.VReg, len(g.p.Insts))
	}
	before := g.used
	for lo := 0; lo < len(g.p.Insts); {
		if wide(g.p.Insts[lo].Op) {
			g.sumsRun(lo, lo+1, 0, u)
			lo++
			continue
		}
		hi := lo
		for hi < len(g.p.Insts) && !wide(g.p.Insts[hi].Op) {
			hi++
		}
		for c0 := 0; c0 < u; c0 += w {
			g.sumsRun(lo, hi, c0, w)
		}
		lo = hi
	}
	if g.used != before {
		panic(fmt.Sprintf("arm64: %s: registers leaked", g.name))
	}
}

// sumsRun emits instructions [lo, hi) for the w copies from c0, interleaved.
func (g *gen) sumsRun(lo, hi, c0, w int) {
	for i := lo; i < hi; i++ {
		in := g.p.Insts[i]
		switch in.Op {
		case kernels.OpLoad:
			g.streamPtr(kernels.FrameIn+8*in.Imm, c0)
			rs := g.allocVecs(w)
			g.ldVecs(sPtr, rs)
			for j, r := range rs {
				g.regs[c0+j][i] = r
			}
		case kernels.OpStore:
			ops := g.copies(i, c0, w)
			g.streamPtr(kernels.FrameOut+8*in.Imm, c0)
			rs := make([]neon.VReg, w)
			for j, o := range ops {
				rs[j] = o.r[0]
			}
			g.stVecs(sPtr, rs)
			g.releaseAll(ops)
		case kernels.OpBail:
			g.domainCheck(i, w)
		case kernels.OpDot:
			g.frameDot(i, c0, w)
		case kernels.OpAcc:
			g.accumulate(i, c0, w)
		case kernels.OpAccDot:
			g.accDot(i, c0, w)
		default:
			for c := c0; c < c0+w; c++ {
				g.inst(c, i)
			}
		}
	}
}

// streamPtr sets sPtr to element i + 2·c0 of the stream whose pointer is at
// frame offset off.
func (g *gen) streamPtr(off, c0 int) {
	g.e.Raw("\tMOVD %d(%v), %v", off, sFrame, sPtr)
	g.e.Raw("\tADD %v, %v, %v", sOff, sPtr, sPtr)
	if c0 > 0 {
		g.e.Raw("\tADD $%d, %v, %v", 16*c0, sPtr, sPtr)
	}
}

// copies fetches the operands of instruction i for the w copies from c0.
func (g *gen) copies(i, c0, w int) []*operands {
	ops := make([]*operands, w)
	for j := range ops {
		ops[j] = g.operands(c0+j, i)
	}
	return ops
}

func (g *gen) releaseAll(ops []*operands) {
	for _, o := range ops {
		g.release(o)
	}
}

func (g *gen) freeAll(rs []neon.VReg) {
	for _, r := range rs {
		g.free(r)
	}
}

// allocVecs allocates n registers, each four of them consecutive when the
// register file has such a run free (for one LD1/ST1), the lowest free ones
// otherwise.
func (g *gen) allocVecs(n int) []neon.VReg {
	var out []neon.VReg
	for len(out) < n {
		k := min(4, n-len(out))
		run := -1
		for r := 0; r+k <= len(g.used) && run < 0; r++ {
			free := true
			for j := r; j < r+k; j++ {
				free = free && !g.used[j]
			}
			if free {
				run = r
			}
		}
		if run < 0 {
			for j := 0; j < k; j++ {
				out = append(out, g.alloc())
			}
			continue
		}
		for j := run; j < run+k; j++ {
			g.used[j] = true
			out = append(out, neon.VReg(j))
		}
	}
	return out
}

// runs splits rs into runs of at most four consecutive registers.
func runs(rs []neon.VReg) [][]neon.VReg {
	var out [][]neon.VReg
	for len(rs) > 0 {
		k := 1
		for k < len(rs) && k < 4 && rs[k] == rs[0]+neon.VReg(k) {
			k++
		}
		out = append(out, rs[:k])
		rs = rs[k:]
	}
	return out
}

// ldVecs loads rs from p, p+16, … and advances p past them.
func (g *gen) ldVecs(p neon.GPR, rs []neon.VReg) {
	for _, run := range runs(rs) {
		g.e.LD1Post(p, 16*len(run), run...)
	}
}

// stVecs stores rs to p, p+16, … and advances p past them.
func (g *gen) stVecs(p neon.GPR, rs []neon.VReg) {
	for _, run := range runs(rs) {
		g.e.ST1Post(p, 16*len(run), run...)
	}
}

// rowLoop emits a loop over the rows k < d of matrix m for the w copies from
// c0: sRow starts at &mat_m[i + 2·c0] and sStep is the row stride in bytes
// less the 16·w bytes a row load advances; setup runs before the loop, body
// emits one row and must advance sRow by 16·w. Nothing is read when d == 0.
func (g *gen) rowLoop(kind string, m, c0, w int, setup, body func()) {
	e := g.e
	g.labels++
	loop := fmt.Sprintf("%s_%s%d", g.name, kind, g.labels)
	end := loop + "_end"
	e.Raw("\tMOVD %d(%v), %v", kernels.FrameD, sFrame, sK)
	e.Raw("\tCBZ %v, %s", sK, end)
	e.Raw("\tMOVD %d(%v), %v", kernels.FrameLd, sFrame, sStep)
	e.Raw("\tLSL $3, %v, %v", sStep, sStep)
	e.Raw("\tSUB $%d, %v, %v", 16*w, sStep, sStep)
	e.Raw("\tMOVD %d(%v), %v", kernels.FrameMat+8*m, sFrame, sRow)
	e.Raw("\tADD %v, %v, %v", sOff, sRow, sRow)
	if c0 > 0 {
		e.Raw("\tADD $%d, %v, %v", 16*c0, sRow, sRow)
	}
	setup()
	e.Label(loop)
	body()
	e.Raw("\tADD %v, %v, %v", sStep, sRow, sRow)
	e.Raw("\tSUBS $1, %v, %v", sK, sK)
	e.Raw("\tBNE %s", loop)
	e.Label(end)
}

// frameDot is OpDot (instruction i) for the w copies from c0: acc = init
// (+0 without one), then acc = fma(vec_m[k], mat_m[k·ld + i…], acc) for
// k < d, one FMLA per term with vec_m[k] replicated by LD1R.
func (g *gen) frameDot(i, c0, w int) {
	in := g.p.Insts[i]
	e := g.e
	acc := make([]neon.VReg, w)
	for j := range acc {
		if in.A < 0 {
			acc[j] = g.alloc()
			e.EOR(acc[j], acc[j], acc[j]) // +0.0
			continue
		}
		o := g.operands(c0+j, i)
		if o.dies(o.r[0]) {
			acc[j] = o.r[0]
			g.release(o, acc[j])
		} else {
			acc[j] = g.alloc()
			e.MOV(acc[j], o.r[0])
			g.release(o)
		}
	}
	g.rowLoop("dot", in.Imm, c0, w, func() {
		e.Raw("\tMOVD %d(%v), %v", kernels.FrameVec+8*in.Imm, sFrame, sVec)
	}, func() {
		xk := g.alloc()
		e.LD1R(sVec, xk)
		e.Raw("\tADD $8, %v, %v", sVec, sVec)
		wv := g.allocVecs(w)
		g.ldVecs(sRow, wv)
		for j := range acc {
			e.FMLA(acc[j], xk, wv[j]) // acc += vec[k]·mat, one rounding
		}
		g.freeAll(wv)
		g.free(xk)
	})
	for j := range acc {
		g.regs[c0+j][i] = acc[j]
	}
}

// rowPart is the part of a 64-byte accumulator row that the w copies from
// c0 feed: its byte offset and its vectors; copy c feeds vector (c−c0) mod n.
func rowPart(c0, w int) (off, n int) {
	return 16 * (c0 % groupVecs), min(w, groupVecs)
}

// accumulate is OpAcc (instruction i) for the w copies from c0: lane
// accumulator row Imm gains each copy's value, copies of one lane in element
// order.
func (g *gen) accumulate(i, c0, w int) {
	in := g.p.Insts[i]
	e := g.e
	ops := g.copies(i, c0, w)
	off, n := rowPart(c0, w)
	e.Raw("\tMOVD %d(%v), %v", kernels.FrameAcc, sFrame, sPtr)
	if off += 8 * kernels.GroupLen * in.Imm; off > 0 {
		e.Raw("\tADD $%d, %v, %v", off, sPtr, sPtr)
	}
	e.Raw("\tMOVD %v, %v", sPtr, rAddr)
	t := g.allocVecs(n)
	g.ldVecs(rAddr, t)
	for j, o := range ops {
		e.FADD(t[j%n], t[j%n], o.r[0])
	}
	g.stVecs(sPtr, t)
	g.freeAll(t)
	g.releaseAll(ops)
}

// accDot is OpAccDot (instruction i) for the w copies from c0: for k < d,
// row accumulator k of matrix m, accm_m[k][lane] = fma(value,
// mat_m[k·ld + i…], itself), copies of one lane in element order.
func (g *gen) accDot(i, c0, w int) {
	in := g.p.Insts[i]
	e := g.e
	ops := g.copies(i, c0, w)
	off, n := rowPart(c0, w)
	g.rowLoop("accdot", in.Imm, c0, w, func() {
		e.Raw("\tMOVD %d(%v), %v", kernels.FrameAccM+8*in.Imm, sFrame, sVec)
		if off > 0 {
			e.Raw("\tADD $%d, %v, %v", off, sVec, sVec)
		}
	}, func() {
		wv := g.allocVecs(w)
		g.ldVecs(sRow, wv)
		t := g.allocVecs(n)
		e.Raw("\tMOVD %v, %v", sVec, rAddr)
		g.ldVecs(rAddr, t)
		for j, o := range ops {
			e.FMLA(t[j%n], o.r[0], wv[j]) // acc += value·mat, one rounding
		}
		g.freeAll(wv)
		g.stVecs(sVec, t)
		g.freeAll(t)
		if adv := 8*kernels.GroupLen - 16*n; adv > 0 {
			e.Raw("\tADD $%d, %v, %v", adv, sVec, sVec) // to the next row
		}
	})
	g.releaseAll(ops)
}
