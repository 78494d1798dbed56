// Command amd64 generates asm/<family>_amd64.s and its stub file from the
// programs in internal/gen/kernels, with avo, for two ISAs: AVX2+FMA (YMM, four
// lanes) and AVX-512F/DQ (ZMM, eight lanes).
//
//	go run ./amd64 -family trig -out ../asm/trig_amd64.s -stubs ../asm/trig_stubs_amd64.go
package main

import (
	"flag"
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/rfkit/rfkit/internal/gen/kernels"
)

var family = flag.String("family", "trig", "kernel family to generate: trig, exp, featmap, sums, dot or standardize")

func main() {
	flag.Parse()
	ConstraintExpr("amd64,gc,!purego,!noasm")
	if *family == "dot" {
		generateDot() // dot.go: hand-built, no kernels.Program
		Generate()
		return
	}
	if *family == "standardize" {
		generateStandardize() // standardize.go: hand-built, no kernels.Program
		Generate()
		return
	}
	progs, err := kernels.Family(*family)
	if err != nil {
		panic(err)
	}
	consts := newConstTable(*family)
	for _, isa := range []isa{avx2, avx512} {
		for _, p := range progs {
			if !isa.zmm {
				p = kernels.Lower(p) // VSCALEFPD is AVX-512 only
			}
			if p.Reduce {
				generateSums(p, isa, consts, false)
				if isa.zmm && hasPanels(p) {
					generatePanels(p, consts, false)
					generatePanels(p, consts, true)
				}
				if !isa.zmm && hasPanels(p) {
					generateSums(p, isa, consts, true) // float32 columns
				}
				continue
			}
			generate(p, isa, consts)
		}
		if *family == "featmap" {
			generateAffineBlocks(isa) // featmap.go
		}
	}
	consts.emit()
	Generate()
}

type isa struct {
	name  string
	width int // float64 lanes
	zmm   bool
}

var (
	avx2   = isa{"AVX2", 4, false}
	avx512 = isa{"AVX512", 8, true}
)

// constTable is one 8-byte entry per distinct constant, broadcast at each use.
type constTable struct {
	name  string
	index map[uint64]int
	vals  []uint64
}

func newConstTable(family string) *constTable {
	return &constTable{name: family + "Consts", index: map[uint64]int{}}
}

func (c *constTable) ref(f float64) Mem {
	bits := math.Float64bits(f)
	i, ok := c.index[bits]
	if !ok {
		i = len(c.vals)
		c.index[bits] = i
		c.vals = append(c.vals, bits)
	}
	return Mem{Symbol: Symbol{Name: c.name, Static: true}, Base: reg.StaticBase, Disp: 8 * i}
}

// ref4 is the 32-byte (four-lane) copy of f, for AVX2 memory operands.
func (c *constTable) ref4(f float64) Mem {
	m := c.ref(f)
	return Mem{Symbol: Symbol{Name: c.name + "4", Static: true}, Base: reg.StaticBase, Disp: 4 * m.Disp}
}

func (c *constTable) emit() {
	GLOBL(c.name, RODATA|NOPTR)
	for i, v := range c.vals {
		DATA(8*i, U64(v))
	}
	GLOBL(c.name+"4", RODATA|NOPTR)
	for i, v := range c.vals {
		for l := 0; l < 4; l++ {
			DATA(32*i+8*l, U64(v))
		}
	}
}

func signature(p *kernels.Program) string {
	if p.Dot {
		args := "dst, x, w, b []float64, ldw int"
		for i := 0; i < p.Params; i++ {
			args += fmt.Sprintf(", p%d float64", i)
		}
		return "func(" + args + ") int"
	}
	var args string
	switch p.Outputs {
	case 1:
		args = "dst"
	case 2:
		args = "sin, cos"
	}
	args += ", x []float64"
	for i := 0; i < p.Params; i++ {
		args += fmt.Sprintf(", p%d float64", i)
	}
	return "func(" + args + ") int"
}

type gen struct {
	p      *kernels.Program
	isa    isa
	consts *constTable
	regs   [][]reg.VecVirtual // regs[copy][value]
	outs   []reg.Register
	in     reg.Register
	i      reg.GPVirtual
	bail   string // where a failed domain check jumps
	// affine-map kernels: row x, its length d, w and its stride in bytes
	dotX, dotD, dotW, dotLdw reg.Register
	labels                   int
	frame                    reg.Register              // reduction kernels: the frame pointer
	accRegs                  []reg.VecVirtual          // reduction kernels on AVX-512: the lane accumulators
	parRegs                  []reg.VecVirtual          // element-wise reductions on AVX-512: the parameters, broadcast once (hoistSums)
	constRegs                map[uint64]reg.VecVirtual // element-wise reductions on AVX-512: constants held in registers, by bits (hoistSums)
	sharedPar                bool                      // sumsBody: one register per parameter for every copy
	slots                    map[kernels.V]Mem         // blocked reduction loop: stack slots of values crossing segments
	pfAhead                  int                       // AVX2 blocked dot loop: prefetch each column this many bytes ahead (0: none)
	pan                      []reg.GPVirtual           // panel variants: the current panel of each matrix
	panBytes                 reg.GPVirtual             // panel variants: bytes per panel
	pf, pfStep               reg.GPVirtual             // panel variants: the prefetch pointer and its step
	pfEvery, pfLeft, pfCount int                       // panel variants: prefetch slots (see spreadPrefetch)
	f32                      bool                      // float32 panel and column variants: the matrix elements are float32
	stash                    reg.GPVirtual             // float32 FreqStep panel variant: the stash of widened rows (see stashRows)
}

func (g *gen) vec() reg.VecVirtual {
	if g.isa.zmm {
		return ZMM()
	}
	return YMM()
}

// operand returns the register holding v in copy u at instruction i, and
// whether it may be overwritten (v is not read again). Constants are
// re-broadcast at each use, which keeps their live ranges to one instruction.
func (g *gen) operand(u int, v kernels.V, i int) (reg.VecVirtual, bool) {
	in := g.p.Insts[v]
	if in.Op == kernels.OpConst {
		if r, ok := g.constRegs[math.Float64bits(in.F)]; ok {
			return r, false // held for the whole call
		}
		return g.constant(in.F), true
	}
	if in.Op == kernels.OpParam && (g.parRegs != nil || g.sharedPar) {
		return g.regs[u][v], false // held for the whole call (hoistSums) or shared by the copies of a body (sumsBody)
	}
	return g.regs[u][v], g.p.Dies(v, i)
}

func (g *gen) isConst(v kernels.V) bool { return g.p.Insts[v].Op == kernels.OpConst }

// fold returns constant v as a memory operand: an embedded broadcast of the
// 8-byte entry on AVX-512, the 32-byte entry on AVX2. Folding saves the
// separate broadcast µop, which matters because these loops are limited by
// issue width as much as by the FMA ports.
func (g *gen) fold(v kernels.V) Mem {
	if g.isa.zmm {
		return g.consts.ref(g.p.Insts[v].F)
	}
	return g.consts.ref4(g.p.Insts[v].F)
}

func (g *gen) absMask() Mem {
	f := math.Float64frombits(math.MaxInt64)
	if g.isa.zmm {
		return g.consts.ref(f)
	}
	return g.consts.ref4(f)
}

func (g *gen) constant(f float64) reg.VecVirtual {
	if r, ok := g.constRegs[math.Float64bits(f)]; ok {
		return r
	}
	r := g.vec()
	VBROADCASTSD(g.consts.ref(f), r)
	return r
}

// unroll is how many vectors one iteration of the main loop interleaves: the
// dependency chain of one vector is long (≈25 dependent FMA-latency steps), so
// independent vectors must be in flight to fill both FMA ports. It is bounded
// by the register file (16 YMM, 32 ZMM).
func unroll(isa isa) int {
	switch {
	case isa.zmm && *family == "exp":
		return 4
	case isa.zmm:
		return 3 // four fail register allocation
	case *family == "exp":
		return 3
	}
	return 2
}

// generate emits one function: a main loop over unroll(isa) vectors at a time
// whose domain check covers the whole group, then a one-vector loop that
// finishes the tail and stops exactly before a vector that fails the check.
func generate(p *kernels.Program, isa isa, consts *constTable) {
	name := p.Name + isa.name
	TEXT(name, NOSPLIT, signature(p))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is the %s body of the %s kernel: %d lanes per vector; it mirrors the pure-Go twin.", name, isa.name, p.Name, isa.width))
	g := &gen{p: p, isa: isa, consts: consts}
	outNames := []string{"dst"}
	if p.Outputs == 2 {
		outNames = []string{"sin", "cos"}
	}
	for _, o := range outNames {
		g.outs = append(g.outs, Load(Param(o).Base(), GP64()))
	}
	var n reg.Register
	if p.Dot {
		// Lanes run over the columns j < len(b); x is the row.
		g.in = Load(Param("b").Base(), GP64())
		n = Load(Param("b").Len(), GP64())
		g.dotX = Load(Param("x").Base(), GP64())
		g.dotD = Load(Param("x").Len(), GP64())
		g.dotW = Load(Param("w").Base(), GP64())
		g.dotLdw = Load(Param("ldw"), GP64())
		SHLQ(Imm(3), g.dotLdw) // row stride of w in bytes
	} else {
		g.in = Load(Param("x").Base(), GP64())
		n = Load(Param("x").Len(), GP64())
	}
	g.i = GP64()
	XORQ(g.i, g.i)
	u := unroll(isa)
	last := GP64() // the loops run while i ≤ len − (vectors·width)
	done, one := name+"_done", name+"_one"

	Label(name + "_many")
	MOVQ(n, last)
	SUBQ(Imm(uint64(u*isa.width)), last)
	CMPQ(g.i, last)
	JG(LabelRef(one))
	g.body(u, one)
	ADDQ(Imm(uint64(u*isa.width)), g.i)
	JMP(LabelRef(name + "_many"))

	Label(one)
	MOVQ(n, last)
	SUBQ(Imm(uint64(isa.width)), last)
	CMPQ(g.i, last)
	JG(LabelRef(done))
	g.body(1, done)
	ADDQ(Imm(uint64(isa.width)), g.i)
	JMP(LabelRef(one))

	Label(done)
	Store(g.i, ReturnIndex(0))
	VZEROUPPER() // leave no dirty upper halves for Go's SSE code
	RET()
}

// body emits the program for u vectors, interleaved instruction by
// instruction; a failed domain check jumps to bail.
func (g *gen) body(u int, bail string) {
	g.bail = bail
	g.regs = make([][]reg.VecVirtual, u)
	for c := range g.regs {
		g.regs[c] = make([]reg.VecVirtual, len(g.p.Insts))
	}
	for i := range g.p.Insts {
		if g.p.Insts[i].Op == kernels.OpLoad && g.p.Dot {
			g.dot(u, i)
			continue
		}
		if g.p.Insts[i].Op == kernels.OpBail {
			g.domainCheck(i, u)
			continue
		}
		for c := 0; c < u; c++ {
			g.inst(c, i)
		}
	}
}

// dot emits the accumulation that replaces input stream 0 (instruction i)
// of an affine-map kernel, for u vectors of columns:
// acc = b[j…]; for k < d { acc = fma(x[k], w[k·ldw + j…], acc) }.
func (g *gen) dot(u, i int) {
	acc := make([]reg.VecVirtual, u)
	for c := range acc {
		acc[c] = g.vec()
		VMOVUPD(g.mem(g.in, c), acc[c])
	}
	g.labels++
	loop := fmt.Sprintf("%s%s_dot%d", g.p.Name, g.isa.name, g.labels)
	end := loop + "_end"
	k, wp := GP64(), GP64()
	XORQ(k, k)
	MOVQ(g.dotW, wp)
	Label(loop)
	CMPQ(k, g.dotD)
	JGE(LabelRef(end))
	xk := g.vec()
	VBROADCASTSD(Mem{Base: g.dotX, Index: k, Scale: 8}, xk)
	for c := range acc {
		VFMADD231PD(Mem{Base: wp, Index: g.i, Scale: 8, Disp: 8 * c * g.isa.width}, xk, acc[c])
	}
	ADDQ(g.dotLdw, wp)
	INCQ(k)
	JMP(LabelRef(loop))
	Label(end)
	for c := range acc {
		g.regs[c][i] = acc[c]
	}
}

func (g *gen) mem(base reg.Register, c int) Mem {
	return Mem{Base: base, Index: g.i, Scale: 8, Disp: 8 * c * g.isa.width}
}

func (g *gen) inst(c, i int) {
	in := g.p.Insts[i]
	set := func(r reg.VecVirtual) { g.regs[c][i] = r }
	switch in.Op {
	case kernels.OpConst:
		return // materialised at each use
	case kernels.OpLoad:
		r := g.vec()
		VMOVUPD(g.mem(g.in, c), r)
		set(r)
	case kernels.OpParam:
		// Broadcast straight from the argument slot: a legacy-SSE MOVSD here
		// would meet dirty upper halves and stall on every iteration.
		arg, err := Param(fmt.Sprintf("p%d", in.Imm)).Resolve()
		if err != nil {
			panic(err)
		}
		r := g.vec()
		VBROADCASTSD(arg.Addr, r)
		set(r)
	case kernels.OpAdd, kernels.OpSub, kernels.OpMul, kernels.OpMin, kernels.OpMax, kernels.OpXor, kernels.OpAnd:
		x, y := in.A, in.B
		commutes := in.Op == kernels.OpAdd || in.Op == kernels.OpMul || in.Op == kernels.OpXor || in.Op == kernels.OpAnd
		if commutes && g.isConst(x) && !g.isConst(y) {
			x, y = y, x
		}
		// Min and Max are not folded: their memory operand is the one a NaN
		// would be replaced by.
		if g.isConst(y) && in.Op != kernels.OpMin && in.Op != kernels.OpMax {
			a, _ := g.operand(c, x, i)
			d := g.vec()
			g.binaryMem(in.Op, a, g.fold(y), d)
			set(d)
			return
		}
		a, _ := g.operand(c, x, i)
		b, _ := g.operand(c, y, i)
		d := g.vec()
		g.binary(in.Op, a, b, d)
		set(d)
	case kernels.OpFMA, kernels.OpFNMA, kernels.OpFMS:
		set(g.fused(c, in, i))
	case kernels.OpAbs:
		a, _ := g.operand(c, in.A, i)
		d := g.vec()
		g.binaryMem(kernels.OpAnd, a, g.absMask(), d)
		set(d)
	case kernels.OpShl:
		a, _ := g.operand(c, in.A, i)
		d := g.vec()
		VPSLLQ(Imm(uint64(in.Imm)), a, d)
		set(d)
	case kernels.OpLdexp:
		x, _ := g.operand(c, in.A, i)
		k, _ := g.operand(c, in.B, i)
		d := g.vec()
		VSCALEFPD(k, x, d) // d = x·2^floor(k), rounded once
		set(d)
	case kernels.OpSelOdd:
		k, _ := g.operand(c, in.A, i)
		x, _ := g.operand(c, in.B, i)
		y, _ := g.operand(c, in.C, i)
		d := g.vec()
		if g.isa.zmm {
			m := K()
			VPTESTMQ_BCST(g.consts.ref(math.Float64frombits(1)), k, m)
			VBLENDMPD(x, y, m, d) // d = m ? x : y
		} else {
			m := g.vec()
			VPSLLQ(Imm(63), k, m)
			VBLENDVPD(m, x, y, d) // d = sign(m) ? x : y
		}
		set(d)
	case kernels.OpStore:
		a, _ := g.operand(c, in.A, i)
		VMOVUPD(a, g.mem(g.outs[in.Imm], c))
	default:
		panic("amd64: unhandled op " + in.Op.String())
	}
}

// domainCheck emits instruction i (an OpBail) for u vectors: jump to g.bail
// unless every lane of every vector has |x| ≤ limit.
func (g *gen) domainCheck(i, u int) {
	in := g.p.Insts[i]
	const notLessEqualUnordered = 6 // NLE_US: true when !(|x| ≤ lim), NaN included
	if g.isa.zmm && u >= 2 {
		// A tree of VRANGEPD (imm 0x0B: the operand of larger magnitude,
		// sign cleared; a NaN operand gives a NaN) leaves max_c |x_c| per
		// lane, NaN where any copy has one, and one compare tests it:
		// 2 of the 3 uops per vector of the AND/compare/OR form go.
		vals := make([]reg.VecVirtual, u)
		for c := range vals {
			vals[c], _ = g.operand(c, in.A, i)
		}
		for len(vals) > 1 {
			var next []reg.VecVirtual
			for j := 0; j+1 < len(vals); j += 2 {
				m := g.vec()
				VRANGEPD(Imm(0x0B), vals[j+1], vals[j], m)
				next = append(next, m)
			}
			if len(vals)%2 == 1 {
				next = append(next, vals[len(vals)-1])
			}
			vals = next
		}
		m := K()
		VCMPPD_BCST(Imm(notLessEqualUnordered), g.fold(in.B), vals[0], m)
		KORTESTB(m, m)
		JNZ(LabelRef(g.bail))
		return
	}
	var anyBad reg.Register
	for c := 0; c < u; c++ {
		x, _ := g.operand(c, in.A, i)
		abs := g.vec()
		g.binaryMem(kernels.OpAnd, x, g.absMask(), abs)
		if g.isa.zmm {
			m := K()
			VCMPPD_BCST(Imm(notLessEqualUnordered), g.fold(in.B), abs, m)
			if anyBad == nil {
				anyBad = m
			} else {
				KORB(m, anyBad, anyBad)
			}
		} else {
			m := g.vec()
			VCMPPD(Imm(notLessEqualUnordered), g.fold(in.B), abs, m)
			if anyBad == nil {
				anyBad = m
			} else {
				VORPD(m, anyBad, anyBad)
			}
		}
	}
	if g.isa.zmm {
		KORTESTB(anyBad, anyBad)
	} else {
		VTESTPD(anyBad, anyBad) // ZF clear when some sign bit is set
	}
	JNZ(LabelRef(g.bail))
}

// binaryMem emits d = a op m for a constant m in memory.
func (g *gen) binaryMem(op kernels.Op, a reg.VecVirtual, m Mem, d reg.VecVirtual) {
	z := g.isa.zmm
	switch {
	case op == kernels.OpAdd && z:
		VADDPD_BCST(m, a, d)
	case op == kernels.OpAdd:
		VADDPD(m, a, d)
	case op == kernels.OpSub && z:
		VSUBPD_BCST(m, a, d)
	case op == kernels.OpSub:
		VSUBPD(m, a, d)
	case op == kernels.OpMul && z:
		VMULPD_BCST(m, a, d)
	case op == kernels.OpMul:
		VMULPD(m, a, d)
	case op == kernels.OpXor && z:
		VPXORQ_BCST(m, a, d)
	case op == kernels.OpXor:
		VXORPD(m, a, d)
	case op == kernels.OpAnd && z:
		VPANDQ_BCST(m, a, d)
	case op == kernels.OpAnd:
		VANDPD(m, a, d)
	default:
		panic("amd64: cannot fold " + op.String())
	}
}

// binary emits d = a op b (Go operand order is source2, source1, destination).
func (g *gen) binary(op kernels.Op, a, b, d reg.VecVirtual) {
	switch op {
	case kernels.OpAdd:
		VADDPD(b, a, d)
	case kernels.OpSub:
		VSUBPD(b, a, d)
	case kernels.OpMul:
		VMULPD(b, a, d)
	case kernels.OpMin:
		VMINPD(a, b, d) // Intel: vminpd d, b, a = b < a ? b : a; a NaN yields a
	case kernels.OpMax:
		VMAXPD(a, b, d)
	case kernels.OpXor:
		if g.isa.zmm {
			VPXORQ(b, a, d)
		} else {
			VXORPD(b, a, d)
		}
	case kernels.OpAnd:
		if g.isa.zmm {
			VPANDQ(b, a, d)
		} else {
			VANDPD(b, a, d)
		}
	default:
		panic("amd64: not binary: " + op.String())
	}
}

// fused emits A·B ± C into whichever operand register dies here (x86 FMA is
// destructive: form 231 overwrites the addend, 213 a factor), copying only when
// all three are still needed.
func (g *gen) fused(u int, in kernels.Inst, i int) reg.VecVirtual {
	f231, f213 := VFMADD231PD, VFMADD213PD
	b231, b213 := VFMADD231PD_BCST, VFMADD213PD_BCST
	switch in.Op {
	case kernels.OpFNMA:
		f231, f213 = VFNMADD231PD, VFNMADD213PD
		b231, b213 = VFNMADD231PD_BCST, VFNMADD213PD_BCST
	case kernels.OpFMS:
		f231, f213 = VFMSUB231PD, VFMSUB213PD
		b231, b213 = VFMSUB231PD_BCST, VFMSUB213PD_BCST
	}
	m213, m231 := f213, f231
	if g.isa.zmm {
		m213, m231 = b213, b231
	}
	// A constant addend goes to memory, form 213 overwriting a factor.
	if g.isConst(in.C) {
		m := g.fold(in.C)
		a, aDies := g.operand(u, in.A, i)
		b, bDies := g.operand(u, in.B, i)
		switch {
		case aDies:
			m213(m, b, a) // a = b·a ± m
			return a
		case bDies:
			m213(m, a, b)
			return b
		}
		d := g.vec()
		VMOVAPD(a, d)
		m213(m, b, d)
		return d
	}
	// A constant factor goes to memory, form 231 overwriting a dying addend.
	if g.p.Dies(in.C, i) && in.C != in.A && in.C != in.B && (g.isConst(in.A) || g.isConst(in.B)) {
		x, k := in.A, in.B
		if g.isConst(x) {
			x, k = k, x
		}
		a, _ := g.operand(u, x, i)
		c := g.regs[u][in.C]
		m231(g.fold(k), a, c) // c = a·m ± c
		return c
	}
	a, aDies := g.operand(u, in.A, i)
	b, bDies := g.operand(u, in.B, i)
	c, cDies := g.operand(u, in.C, i)
	switch {
	case cDies && in.C != in.A && in.C != in.B:
		f231(b, a, c) // c = a·b ± c
		return c
	case aDies && in.A != in.C:
		f213(c, b, a) // a = b·a ± c
		return a
	case bDies && in.B != in.C:
		f213(c, a, b) // b = a·b ± c
		return b
	}
	d := g.vec()
	VMOVAPD(c, d)
	f231(b, a, d)
	return d
}
