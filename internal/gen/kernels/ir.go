// Package kernels describes rfkit's elementwise kernels once, as straight-line
// vector programs over float64 lanes, so that every assembly back end (AVX2,
// AVX-512, NEON) emits the same operations in the same order as the pure-Go
// twins in package asm. A back end only maps each Op to instructions and owns
// the loop, the tail and register allocation.
package kernels

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/poly"
)

// V names a vector value produced by an instruction of a Program.
type V int

// Op is a lane-wise vector operation.
type Op int

// The operations. Float ops round once (FMA forms are fused); bit ops act on
// the 64-bit patterns of the lanes.
const (
	OpLoad   Op = iota // Imm: input stream number
	OpConst            // F: the value, Name: a label for it
	OpParam            // Imm: scalar parameter number, broadcast to every lane
	OpAdd              // A + B
	OpSub              // A − B
	OpMul              // A · B
	OpFMA              // A·B + C
	OpFNMA             // C − A·B
	OpFMS              // A·B − C
	OpMin              // clamp from above: B if A > B, A otherwise; NaN A stays NaN
	OpMax              // clamp from below: B if A < B, A otherwise; NaN A stays NaN
	OpAbs              // |A| (clears the sign bit)
	OpXor              // A ^ B
	OpAnd              // A & B
	OpShl              // A << Imm (64-bit lanes)
	OpSelOdd           // lane-wise: B if the lowest bit of A is set, else C
	OpStore            // write A to output stream Imm
	OpBail             // stop before this vector unless every lane has |A| ≤ B (NaN fails)
	OpLdexp            // A·2^B for integer-valued B in [−1076, 1025], rounded once
	OpDot              // reductions: A (or 0 when A < 0) + Σ_k vec_Imm[k]·mat_Imm[k·ld + lane], in k order, one FMA per term
	OpAcc              // reductions: lane accumulator Imm += A
	OpAccDot           // reductions: for k < d, matrix-row accumulator (Imm, k) = fma(A, mat_Imm[k·ld + lane], itself)
)

var opNames = [...]string{"load", "const", "param", "add", "sub", "mul", "fma", "fnma", "fms",
	"min", "max", "abs", "xor", "and", "shl", "selodd", "store", "bail", "ldexp",
	"dot", "acc", "accdot"}

func (o Op) String() string { return opNames[o] }

// Inst is one operation; A, B, C are operands (−1 when unused).
type Inst struct {
	Op      Op
	A, B, C V
	Imm     int
	F       float64
	Name    string
}

// Program is a kernel body for one vector of lanes.
type Program struct {
	Name    string // Go-style base name, e.g. "cos"
	Inputs  int    // input streams
	Outputs int    // output streams
	Params  int    // scalar float64 parameters after the slices
	Bails   bool   // whether the body may stop early (domain check)
	// Dot marks an affine-map kernel: input stream 0 is not loaded but
	// computed per lane j as b[j] + Σ_k x[k]·w[k·ldw + j], accumulated from
	// b[j] in k order with one FMA per term. The function's signature is
	// func(dst, x, w, b []float64, ldw int, params...) int over j < len(b).
	Dot bool
	// Reduce marks a reduction kernel (see reduce.go): it reads and writes
	// through a frame, works on groups of eight elements and accumulates
	// lane i mod 8 of each group into lane accumulators.
	Reduce bool
	Accs   int // lane accumulators (OpAcc slots)
	Mats   int // matrices (each with its dot vector)
	Insts  []Inst
	// LastUse[v] is the index of the last instruction reading v (−1 if none).
	LastUse []int
}

// Builder records a Program.
type Builder struct{ p *Program }

// NewBuilder starts a program.
func NewBuilder(name string, inputs, outputs, params int) *Builder {
	return &Builder{p: &Program{Name: name, Inputs: inputs, Outputs: outputs, Params: params}}
}

func (b *Builder) emit(in Inst) V {
	b.p.Insts = append(b.p.Insts, in)
	return V(len(b.p.Insts) - 1)
}

func (b *Builder) op(op Op, a, bb, c V) V { return b.emit(Inst{Op: op, A: a, B: bb, C: c}) }

func (b *Builder) Load(stream int) V {
	return b.emit(Inst{Op: OpLoad, A: -1, B: -1, C: -1, Imm: stream})
}
func (b *Builder) Param(i int) V { return b.emit(Inst{Op: OpParam, A: -1, B: -1, C: -1, Imm: i}) }

// Const is a constant broadcast to every lane.
func (b *Builder) Const(name string, f float64) V {
	return b.emit(Inst{Op: OpConst, A: -1, B: -1, C: -1, F: f, Name: name})
}

func (b *Builder) Add(x, y V) V       { return b.op(OpAdd, x, y, -1) }
func (b *Builder) Sub(x, y V) V       { return b.op(OpSub, x, y, -1) }
func (b *Builder) Mul(x, y V) V       { return b.op(OpMul, x, y, -1) }
func (b *Builder) FMA(x, y, z V) V    { return b.op(OpFMA, x, y, z) }
func (b *Builder) FNMA(x, y, z V) V   { return b.op(OpFNMA, x, y, z) }
func (b *Builder) FMS(x, y, z V) V    { return b.op(OpFMS, x, y, z) }
func (b *Builder) Min(x, y V) V       { return b.op(OpMin, x, y, -1) }
func (b *Builder) Max(x, y V) V       { return b.op(OpMax, x, y, -1) }
func (b *Builder) Abs(x V) V          { return b.op(OpAbs, x, -1, -1) }
func (b *Builder) Xor(x, y V) V       { return b.op(OpXor, x, y, -1) }
func (b *Builder) And(x, y V) V       { return b.op(OpAnd, x, y, -1) }
func (b *Builder) SelOdd(k, x, y V) V { return b.op(OpSelOdd, k, x, y) }
func (b *Builder) Shl(x V, n int) V {
	return b.emit(Inst{Op: OpShl, A: x, B: -1, C: -1, Imm: n})
}
func (b *Builder) Store(stream int, x V) {
	b.emit(Inst{Op: OpStore, A: x, B: -1, C: -1, Imm: stream})
}

// Bail ends the body before anything is stored unless every lane of x
// satisfies |x| ≤ limit.
func (b *Builder) Bail(x, limit V) {
	b.p.Bails = true
	b.emit(Inst{Op: OpBail, A: x, B: limit, C: -1})
}

// Ldexp is x·2^k for an integer-valued k in [−1076, 1025], rounded once
// (correctly into the subnormal range). AVX-512 has it as one instruction
// (VSCALEFPD); Lower expands it for the other back ends.
func (b *Builder) Ldexp(x, k V) V { return b.op(OpLdexp, x, k, -1) }

// Bits is a constant given by its bit pattern.
func (b *Builder) Bits(name string, bits uint64) V {
	return b.Const(name, float64frombits(bits))
}

// Finish computes liveness and returns the program.
func (b *Builder) Finish() *Program {
	p := b.p
	p.LastUse = make([]int, len(p.Insts))
	for i := range p.LastUse {
		p.LastUse[i] = -1
	}
	for i, in := range p.Insts {
		for _, v := range []V{in.A, in.B, in.C} {
			if v >= 0 {
				if int(v) >= i {
					panic(fmt.Sprintf("%s: instruction %d uses a later value", p.Name, i))
				}
				p.LastUse[v] = i
			}
		}
		if in.Op == OpBail {
			for j := 0; j < i; j++ {
				if op := p.Insts[j].Op; op == OpStore || op == OpAcc || op == OpAccDot {
					panic(p.Name + ": bail after a store or an accumulation")
				}
			}
		}
	}
	return p
}

// Dies reports whether instruction i is the last reader of v.
func (p *Program) Dies(v V, i int) bool { return v >= 0 && p.LastUse[v] == i }

// Lower returns p with every OpLdexp expanded into operations every back end
// has: 2^k = 2^k1·2^k2 with k1 = round(k/2), both factors normal, so x·2^k1 is
// exact and the second product is the only rounding (the same bits as one
// correctly rounded scaling). Programs without OpLdexp come back unchanged.
func Lower(p *Program) *Program {
	has := false
	for _, in := range p.Insts {
		has = has || in.Op == OpLdexp
	}
	if !has {
		return p
	}
	b := &Builder{p: &Program{Name: p.Name, Inputs: p.Inputs, Outputs: p.Outputs, Params: p.Params, Bails: p.Bails, Dot: p.Dot,
		Reduce: p.Reduce, Accs: p.Accs, Mats: p.Mats}}
	m := make([]V, len(p.Insts))
	mapv := func(v V) V {
		if v < 0 {
			return v
		}
		return m[v]
	}
	for i, in := range p.Insts {
		if in.Op != OpLdexp {
			in.A, in.B, in.C = mapv(in.A), mapv(in.B), mapv(in.C)
			m[i] = b.emit(in)
			continue
		}
		x, k := mapv(in.A), mapv(in.B)
		shift := b.Const("shift", poly.RoundShift)
		k1 := b.Sub(b.FMA(k, b.Const("half", 0.5), shift), shift)
		k2 := b.Sub(k, k1)
		bias := b.Const("expBiasShift", poly.ExpBiasShift)
		s1 := b.Shl(b.Add(k1, bias), 52)
		s2 := b.Shl(b.Add(k2, bias), 52)
		m[i] = b.Mul(b.Mul(x, s1), s2)
	}
	return b.Finish()
}
