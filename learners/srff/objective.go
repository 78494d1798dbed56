package srff

import (
	"math"
	"slices"
	"sync"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/internal/par"
)

// blockRows is the fixed number of rows in one unit of work of the γ-step
// objective. Each block's sums are computed on their own and the blocks are
// combined in order, so the results do not depend on GOMAXPROCS. 64 rows of
// D = 300 sines (150 KB) stay in the L2 cache while the d input columns
// sweep them.
const blockRows = 64

// parallelWork is the work (rows × inputs × features) below which an
// evaluation stays on the calling goroutine.
const parallelWork = 1 << 20

// evaluator computes the objective of one training set and its γ gradient,
// with the kernels of package asm:
//
//   - the features z_ij = s·cos θ_ij of the block's rows come from
//     asm.CosAffineRows (register-blocked, the bits of featmap's map) into
//     the n×D matrix ev.z, which the a-step's Gram matrix reads too: ev.z
//     is kept with the γ it was computed at (zGamma), and the a-step after
//     an accepted γ-step finds the features of its γ already there, as
//     does the gradient at the start of the next γ-step;
//   - the residual of row i is yc_i − Σ_j a_j·z_ij (dot4: four FMA chains
//     in a fixed order, as the a-step's objective);
//   - the gradient ∂J/∂γ_k = Σ_j (−a_j·ε_kj)·G_kj with
//     G_kj = Σ_i (u_i·x_ik)·(s·sin θ_ij), u = −w·r/W: per block of rows,
//     s·sin θ is asm.CosAffineRows with phases shifted by −π/2 and, for
//     every input k, one asm.DotStats forms G_k· over the block's rows and
//     its product with (−a ⊙ ε_k·) in the same pass.
//
// The phases θ use only the inputs with γ_k ≠ 0 (setGamma), gathered once
// into the n×len(act) matrix xa whenever that set changes.
//
// Internally the noise, phases and weights are padded to Dp columns (a
// multiple of 8, the kernels' group) with zeros: padded columns add exact
// zeros, so the sums are those of the unpadded map, while every group of
// DotStats runs in assembly.
type evaluator struct {
	X      featmap.Matrix // n×d standardised rows
	yc     []float64      // centred targets
	wt     []float64      // row weights (nil: all 1)
	wsum   float64        // Σ wt (n without weights)
	n, d   int
	D, Dp  int
	scale  float64   // √(2/D)
	eps    []float64 // ε, d×Dp (zero-padded)
	b, bs  []float64 // phases and phases − π/2 (Dp, zero-padded)
	w      []float64 // frequencies γ_k·ε_kj of the inputs with γ_k ≠ 0, len(act)×Dp
	act    []int     // the inputs with γ_k ≠ 0, in order
	xaAct  []int     // the act xa was gathered for
	xa     []float64 // the inputs act of every row, n×len(xaAct)
	panels *asm.AffinePanels
	a      []float64 // a (D)
	c      []float64 // −a_j·ε_kj, d×Dp
	z      []float64 // features n×D at zGamma
	zGamma []float64 // the γ of z (nil: z not computed)
	gram   []float64 // per-stripe Gram matrices of ridge
	chol   []float64 // ZᵀZ + nλI and its Cholesky factor (D×D)
	blocks int
	part   []float64 // per block: Σr² then d gradient sums
	pool   sync.Pool // of *blockScratch
}

// blockScratch is one goroutine's working space for a block.
type blockScratch struct {
	s   []float64 // blockRows × Dp sines
	xu  []float64 // d × blockRows: u_i·x_ik, column k contiguous
	h   []float64 // Dp
	acc [8]float64
}

// newEvaluator returns the evaluator of the rows X, centred targets yc
// and row weights w (nil: all 1) for the map of noise eps (d×D) and
// phases b.
func newEvaluator(X featmap.Matrix, yc, w, eps, b []float64, D int) *evaluator {
	n, d := X.Rows, X.Cols
	Dp := (D + 7) &^ 7
	ev := &evaluator{X: X, yc: yc, wt: w, wsum: weightSum(w, n), n: n, d: d, D: D, Dp: Dp, scale: math.Sqrt(2 / float64(D)),
		eps: make([]float64, d*Dp), b: make([]float64, Dp), bs: make([]float64, Dp),
		w: make([]float64, d*Dp), act: make([]int, 0, d), a: make([]float64, D), c: make([]float64, d*Dp)}
	for k := 0; k < d; k++ {
		copy(ev.eps[k*Dp:k*Dp+D], eps[k*D:(k+1)*D])
	}
	copy(ev.b, b)
	for j, v := range b {
		ev.bs[j] = v - math.Pi/2 // sin θ = cos(θ − π/2), as featmap shifts it
	}
	ev.blocks = (n + blockRows - 1) / blockRows
	ev.part = make([]float64, ev.blocks*(d+1))
	ev.pool.New = func() any {
		return &blockScratch{s: make([]float64, blockRows*Dp), xu: make([]float64, d*blockRows), h: make([]float64, Dp)}
	}
	return ev
}

// setGamma computes the frequencies W_kj = γ_k·ε_kj (one rounded product
// each, as featmap.Scaled.SetScales and the model do) of the inputs with
// γ_k ≠ 0, packs them for asm.CosAffineRows, and gathers those inputs of
// every row into xa if the set changed.
//
// The inputs with γ_k = 0 are left out of the phases θ_j = b_j + Σ_k
// x_k·W_kj: their terms x_k·(±0) are exact zeros, and adding a zero to an
// accumulator that starts at b_j ≥ 0 never changes it (it can never be −0),
// so the phases have the bits of the full sum, at a fraction of its cost
// once the simplex has zeroed most of γ. The gradient still covers every
// input.
func (ev *evaluator) setGamma(gamma []float64) {
	ev.act = ev.act[:0]
	for k, g := range gamma {
		if g == 0 {
			continue
		}
		row := ev.w[len(ev.act)*ev.Dp : (len(ev.act)+1)*ev.Dp]
		for j, v := range ev.eps[k*ev.Dp : (k+1)*ev.Dp] {
			row[j] = g * v
		}
		ev.act = append(ev.act, k)
	}
	da := len(ev.act)
	if ev.xa == nil || !slices.Equal(ev.act, ev.xaAct) {
		ev.xaAct = append(ev.xaAct[:0], ev.act...)
		if ev.xa == nil {
			ev.xa = make([]float64, ev.n*ev.d)
		}
		for i := 0; i < ev.n; i++ {
			x, dst := ev.X.Row(i), ev.xa[i*da:(i+1)*da]
			for t, k := range ev.act {
				dst[t] = x[k]
			}
		}
	}
	ev.panels = asm.NewAffinePanels(ev.w[:da*ev.Dp], da, ev.D, ev.Dp)
}

// setA stores the weights a of the γ-step: a_j and −a_j·ε_kj.
func (ev *evaluator) setA(a []float64) {
	copy(ev.a, a)
	for k := 0; k < ev.d; k++ {
		row, e := ev.c[k*ev.Dp:(k+1)*ev.Dp], ev.eps[k*ev.Dp:(k+1)*ev.Dp]
		for j, v := range a {
			row[j] = -float64(v * e[j])
		}
	}
}

// haveFeatures reports whether ev.z holds the features at gamma.
func (ev *evaluator) haveFeatures(gamma []float64) bool {
	return ev.zGamma != nil && slices.Equal(ev.zGamma, gamma)
}

// featureRows computes the features of rows [lo, hi) into ev.z.
func (ev *evaluator) featureRows(lo, hi int) {
	da := len(ev.act)
	asm.CosAffineRows(ev.z[lo*ev.D:], ev.D, ev.xa[lo*da:], da, hi-lo, ev.panels, ev.b[:ev.D], ev.scale)
}

// features computes Z(γ) (n×D, the bits featmap's Transform gives) into
// ev.z, unless ev.z already holds it.
func (ev *evaluator) features(gamma []float64) {
	if ev.z == nil {
		ev.z = make([]float64, ev.n*ev.D)
	}
	if ev.haveFeatures(gamma) {
		return
	}
	ev.setGamma(gamma)
	ev.run(func(blk int, _ *blockScratch) {
		ev.featureRows(blk*blockRows, min(ev.n, (blk+1)*blockRows))
	})
	ev.zGamma = append(ev.zGamma[:0], gamma...)
}

// value returns the γ-step objective (1/2W)Σ w_i (yc − Z(γ)a)_i² (W = Σw,
// n without weights) at the a of the last setA, and, if grad is not nil,
// writes its gradient into grad. It leaves the features at γ in ev.z.
func (ev *evaluator) value(gamma, grad []float64) float64 {
	if ev.z == nil {
		ev.z = make([]float64, ev.n*ev.D)
	}
	fresh := !ev.haveFeatures(gamma)
	if fresh || grad != nil {
		ev.setGamma(gamma)
	}
	d, D, Dp, B := ev.d, ev.D, ev.Dp, blockRows
	inv := 1 / ev.wsum
	ev.run(func(blk int, sc *blockScratch) {
		lo, hi := blk*B, min(ev.n, (blk+1)*B)
		part := ev.part[blk*(d+1) : (blk+1)*(d+1)]
		if fresh {
			ev.featureRows(lo, hi)
		}
		var ss float64
		for i := lo; i < hi; i++ {
			r := ev.yc[i] - dot4(ev.a, ev.z[i*D:(i+1)*D])
			wr := r // w_i·r_i
			if ev.wt != nil {
				wr = float64(ev.wt[i] * r)
			}
			ss += float64(wr * r)
			if grad == nil {
				continue
			}
			u := -wr * inv
			for k, v := range ev.X.Row(i) {
				sc.xu[k*B+i-lo] = float64(u * v)
			}
		}
		part[0] = ss
		if grad == nil {
			return
		}
		da := len(ev.act)
		asm.CosAffineRows(sc.s, Dp, ev.xa[lo*da:], da, hi-lo, ev.panels, ev.bs[:D], ev.scale)
		for i := hi - lo; i < B; i++ { // pad a short last block with zero rows
			for k := 0; k < d; k++ {
				sc.xu[k*B+i] = 0
			}
			clear(sc.s[i*Dp : (i+1)*Dp])
		}
		h := B / 2
		for k := 0; k < d; k++ {
			sc.acc = [8]float64{}
			xu := sc.xu[k*B : (k+1)*B]
			asm.DotStats(sc.h, ev.c[k*Dp:(k+1)*Dp], sc.s, xu[:h], sc.s[h*Dp:], xu[h:], Dp, &sc.acc)
			part[1+k] = asm.SumLanes(&sc.acc)
		}
	})
	if fresh {
		ev.zGamma = append(ev.zGamma[:0], gamma...)
	}
	var ss float64
	if grad != nil {
		clear(grad)
	}
	for blk := 0; blk < ev.blocks; blk++ {
		part := ev.part[blk*(d+1) : (blk+1)*(d+1)]
		ss += part[0]
		for k := range grad { // grad is nil when only ss is wanted
			grad[k] += part[1+k]
		}
	}
	return ss * inv / 2
}

// run calls f on every block, on up to GOMAXPROCS goroutines when the work
// is large enough. Blocks write disjoint results, so the order in which
// they run does not matter.
func (ev *evaluator) run(f func(blk int, sc *blockScratch)) {
	par.Each(ev.blocks, ev.n*ev.d*ev.D < parallelWork, func() *blockScratch { return ev.pool.Get().(*blockScratch) },
		func(sc *blockScratch) { ev.pool.Put(sc) }, f)
}
