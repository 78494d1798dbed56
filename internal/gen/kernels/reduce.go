package kernels

import "github.com/rfkit/rfkit/internal/poly"

// Reduction kernels (the exp-loss sums of the boosting learners and the
// Σ a_j·cos epilogue of the feature maps; asm's sums.go) share one calling
// convention: the body is func(f *sumsFrame) int, reading everything from a
// frame laid out as below, processing whole groups of GroupLen elements from f.i while
// f.i + GroupLen ≤ f.n, and returning the index it stopped at (a group
// failing a domain check stops it, before that group stores or accumulates
// anything). Element i of a group feeds lane i mod 8 of every accumulator,
// and the lanes of one accumulator are updated in element order, so the sums
// are the same bits on every path: the lane order does not depend on the
// vector width. asm/sums_frame.go declares the Go struct (sumsFrame); a test
// there keeps these offsets honest.
const (
	GroupLen = 8

	FrameIn   = 0   // in [4]*float64: element streams, element i at in[s][i]
	FrameOut  = 32  // out [2]*float64
	FrameMat  = 48  // mat [2]*float64: matrix m holds element (k, i) at mat[m][k·ld + i]
	FrameVec  = 64  // vec [2]*float64: the dot vector of matrix m, length d
	FrameAcc  = 80  // acc *float64: [Accs][8] lane accumulators
	FrameAccM = 88  // accm [2]*float64: [d][8] row accumulators of matrix m
	FrameD    = 104 // d int
	FrameLd   = 112 // ld int: the row stride of the matrices, in elements
	FrameI    = 120 // i int: the first element
	FrameN    = 128 // n int: the end
	FramePar  = 136 // par [4]float64: the scalar parameters
	FrameSize = 168
)

// Dot is init + Σ_k vec_m[k]·mat_m[k·ld + lane] (init < 0: from zero).
func (b *Builder) Dot(init V, m int) V {
	b.p.Reduce = true
	if m+1 > b.p.Mats {
		b.p.Mats = m + 1
	}
	return b.emit(Inst{Op: OpDot, A: init, B: -1, C: -1, Imm: m})
}

// Acc adds x to lane accumulator slot.
func (b *Builder) Acc(slot int, x V) {
	b.p.Reduce = true
	if slot+1 > b.p.Accs {
		b.p.Accs = slot + 1
	}
	b.emit(Inst{Op: OpAcc, A: x, B: -1, C: -1, Imm: slot})
}

// AccDot adds x·mat_m[k·ld + lane] to row accumulator k of matrix m, for
// every k < d, one FMA each.
func (b *Builder) AccDot(m int, x V) {
	b.p.Reduce = true
	b.emit(Inst{Op: OpAccDot, A: x, B: -1, C: -1, Imm: m})
}

func newReduction(name string, inputs, outputs, params int) *Builder {
	b := NewBuilder(name, inputs, outputs, params)
	b.p.Reduce = true
	return b
}

// negate flips the sign bit (exact).
func negate(b *Builder, x V) V { return b.Xor(x, b.Bits("signbit", 1<<63)) }

// boundedExp is exp(max(−ExpLossMax, min(x, ExpLossMax))): the exponent
// safeguard of the exp loss, which keeps every term finite.
func boundedExp(b *Builder, x V) V {
	x = b.Min(x, b.Const("expLossMax", poly.ExpLossMax))
	x = b.Max(x, b.Const("expLossMin", -poly.ExpLossMax))
	return expCore(b, x)
}

// Weights is the boosting update: H' = fma(α, h, H), w = exp(−y·H') (bounded),
// ỹ = y·w; it stores ỹ and H' and accumulates Σw.
// Streams: in y, H, h; out ỹ, H'; param α.
func Weights() *Program {
	b := newReduction("weights", 3, 2, 1)
	y, h := b.Load(0), b.Load(2)
	H := b.FMA(b.Param(0), h, b.Load(1))
	w := boundedExp(b, b.Mul(negate(b, y), H))
	b.Store(0, b.Mul(y, w))
	b.Store(1, H)
	b.Acc(0, w)
	return b.Finish()
}

// Phase (asm.PhaseSums) is the GBRFF2 phase search at one b: with t = c·cos b + s·sin b and
// e = exp(−ỹ·t) (bounded), it accumulates Σe and Σ e·ỹ·(s·cos b − c·sin b)
// (the latter is −f'(b)). Streams: in c, s, ỹ; params cos b, sin b.
func Phase() *Program {
	b := newReduction("phase", 3, 0, 2)
	c, s, yt := b.Load(0), b.Load(1), b.Load(2)
	cb, sb := b.Param(0), b.Param(1)
	t := b.FMA(c, cb, b.Mul(s, sb))
	// dt before the exponential, the same value: c, s and the parameters
	// are then dead across it, and the two copies of the AVX2 body fit in
	// 16 YMM registers
	dt := b.FMS(s, cb, b.Mul(c, sb))
	e := boundedExp(b, b.Mul(negate(b, yt), t))
	b.Acc(0, e)
	b.Acc(1, b.Mul(b.Mul(e, yt), dt))
	return b.Finish()
}

// SincosDot stores sin and cos of p = Σ_k vec[k]·mat[k·ld + i] (matrix 0).
func SincosDot() *Program {
	b := newReduction("sincosDot", 0, 2, 0)
	p := b.Dot(-1, 0)
	domain(b, p)
	t := reduce(b, p)
	s, c := sinKernel(b, t.rh, t.rl, t.z), cosKernel(b, t.rh, t.rl, t.z)
	b.Store(0, sinOf(b, t, s, c))
	b.Store(1, cosOf(b, t, s, c))
	return b.Finish()
}

// DotStats is the weak learner's output from precomputed cosines and sines:
// h = Σ_k vec0[k]·mat0[k,i] + Σ_k vec1[k]·mat1[k,i]; it stores h and
// accumulates Σ ỹ·h. Stream: in ỹ; out h.
func DotStats() *Program {
	b := newReduction("dotStats", 1, 1, 0)
	h := b.Dot(b.Dot(-1, 0), 1)
	b.Store(0, h)
	b.Acc(0, b.Mul(b.Load(0), h))
	return b.Finish()
}

// FreqStep (asm.FreqStepSums) is one sweep of the GBRFF2 frequency objective: with
// p = Σ_k ω[k]·X[k,i] (matrix 0 is Xᵀ, vector 0 is ω), t = p − b,
// e = exp(−ỹ·cos t) (bounded) and r = ỹ·sin t·e, it accumulates Σe and, per
// input k, Σ r·X[k,i], and stores the projection p: the dot of SincosDot,
// the same bits, so that a caller can take the sines and cosines of the last
// point it evaluated without another pass over X. Stream: in ỹ; out p;
// param b.
func FreqStep() *Program {
	b := newReduction("freqStep", 1, 1, 1)
	p := b.Dot(-1, 0)
	t := b.Sub(p, b.Param(0))
	domain(b, t)
	b.Store(0, p) // after the domain check: a failed group stores nothing
	tp := reduce(b, t)
	sk, ck := sinKernel(b, tp.rh, tp.rl, tp.z), cosKernel(b, tp.rh, tp.rl, tp.z)
	s, c := sinOf(b, tp, sk, ck), cosOf(b, tp, sk, ck)
	yt := b.Load(0)
	e := boundedExp(b, b.Mul(negate(b, yt), c))
	b.Acc(0, e)
	b.AccDot(0, b.Mul(b.Mul(yt, s), e))
	return b.Finish()
}

// Landmark (asm.LandmarkSums) is one sweep of the GBRFF1 landmark objective through the phase
// shift: m = Σ_k vec0[k]·C[k,i] + Σ_k vec1[k]·S[k,i] (matrices C = cos Pᵀ,
// S = sin Pᵀ; the vectors are cos a/K and sin a/K), e = exp(−ỹ·m) (bounded),
// r = ỹ·e; it accumulates Σe, Σ r·C[k,i] and Σ r·S[k,i]. Stream: in ỹ.
func Landmark() *Program {
	b := newReduction("landmark", 1, 0, 0)
	m := b.Dot(b.Dot(-1, 0), 1)
	yt := b.Load(0)
	e := boundedExp(b, b.Mul(negate(b, yt), m))
	b.Acc(0, e)
	r := b.Mul(yt, e)
	b.AccDot(0, r)
	b.AccDot(1, r)
	return b.Finish()
}

// CosSum is the feature-map epilogue for one row x: lanes run over the
// features j, v = b[j] + Σ_k x[k]·W[k·ldw + j] (matrix 0 is W, vector 0 is
// x), and it accumulates Σ a[j]·cos v. Streams: in b, a.
func CosSum() *Program {
	b := newReduction("cosSum", 2, 0, 0)
	v := b.Dot(b.Load(0), 0)
	domain(b, v)
	t := reduce(b, v)
	c := cosOf(b, t, sinKernel(b, t.rh, t.rl, t.z), cosKernel(b, t.rh, t.rl, t.z))
	b.Acc(0, b.Mul(b.Load(1), c))
	return b.Finish()
}

// SincosStats (asm.SincosStats) ends a GBRFF2 round from stored
// projections p (exploss.FreqStep): with s = sin p and c = cos p (the trig
// of SincosDot and Sincos), h = sin b·s + (cos b·c + 0) — the two FMAs of
// DotStats over the rows c and s with the vectors (cos b) and (sin b) — it
// stores h and accumulates Σ ỹ·h: the bits of Sincos followed by DotStats,
// in one pass that neither stores s and c nor reads them back.
// Streams: in p, ỹ; out h; params cos b, sin b.
func SincosStats() *Program {
	b := newReduction("sincosStats", 2, 1, 2)
	p := b.Load(0)
	domain(b, p)
	t := reduce(b, p)
	sk, ck := sinKernel(b, t.rh, t.rl, t.z), cosKernel(b, t.rh, t.rl, t.z)
	s, c := sinOf(b, t, sk, ck), cosOf(b, t, sk, ck)
	h := b.FMA(b.Param(1), s, b.FMA(b.Param(0), c, b.Const("zero", 0)))
	b.Store(0, h)
	b.Acc(0, b.Mul(b.Load(1), h))
	return b.Finish()
}
