package srff

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
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
// with the fused kernels of package asm:
//
//   - the residual of row i is yc_i − Σ_j (s·a_j)·cos θ_ij (asm.CosSum, the
//     features are never stored);
//   - the gradient ∂J/∂γ_k = Σ_j (−a_j·ε_kj)·G_kj with
//     G_kj = Σ_i (u_i·x_ik)·(s·sin θ_ij), u = −r/n: per block of rows,
//     s·sin θ is one asm.CosAffine per row (phases shifted by −π/2) and, for
//     every input k, one asm.DotStats forms G_k· over the block's rows and
//     its product with (−a ⊙ ε_k·) in the same pass.
//
// That is the same n·d·D multiply-adds as a row-by-row gradient, but in
// vector registers, split across goroutines, and without the dependency
// chain of a scalar dot product per (row, input).
//
// Internally the D features are padded to Dp (a multiple of 8, the kernels'
// group) with zero frequencies and zero weights: padded features add exact
// zeros, so the sums are those of the unpadded map, while every group of
// the kernels runs in assembly.
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
	sa     []float64 // s·a (Dp)
	c      []float64 // −a_j·ε_kj, d×Dp
	z      []float64 // features n×D for the a-step
	gram   []float64 // per-stripe Gram matrices of ridge
	chol   []float64 // ZᵀZ + nλI and its Cholesky factor (D×D)
	blocks int
	part   []float64 // per block: Σr² then d gradient sums
	pool   sync.Pool // of *blockScratch
}

// blockScratch is one goroutine's working space for a block.
type blockScratch struct {
	s   []float64 // blockRows × Dp sines
	x   []float64 // the active inputs of a row (d)
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
		w: make([]float64, d*Dp), act: make([]int, 0, d), sa: make([]float64, Dp), c: make([]float64, d*Dp)}
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
		return &blockScratch{s: make([]float64, blockRows*Dp), x: make([]float64, d), xu: make([]float64, d*blockRows), h: make([]float64, Dp)}
	}
	return ev
}

// setGamma computes the frequencies W_kj = γ_k·ε_kj (one rounded product
// each, as featmap.Scaled.SetScales and the model do) of the inputs with
// γ_k ≠ 0.
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
}

// gather copies the active inputs of row x into dst.
func (ev *evaluator) gather(dst, x []float64) []float64 {
	dst = dst[:len(ev.act)]
	for t, k := range ev.act {
		dst[t] = x[k]
	}
	return dst
}

// setA stores the weights a of the γ-step: s·a_j and −a_j·ε_kj.
func (ev *evaluator) setA(a []float64) {
	for j, v := range a {
		ev.sa[j] = float64(ev.scale * v)
	}
	for k := 0; k < ev.d; k++ {
		row, e := ev.c[k*ev.Dp:(k+1)*ev.Dp], ev.eps[k*ev.Dp:(k+1)*ev.Dp]
		for j, v := range a {
			row[j] = -float64(v * e[j])
		}
	}
}

// features computes Z(γ) (n×D, the bits featmap's Transform gives) into
// ev.z.
func (ev *evaluator) features(gamma []float64) {
	ev.setGamma(gamma)
	if ev.z == nil {
		ev.z = make([]float64, ev.n*ev.D)
	}
	D := ev.D
	ev.run(func(blk int, sc *blockScratch) {
		for i := blk * blockRows; i < min(ev.n, (blk+1)*blockRows); i++ {
			// All Dp columns, so that every group of eight runs in
			// assembly (the same bits per column); the padding is dropped.
			asm.CosAffine(sc.h, ev.gather(sc.x, ev.X.Row(i)), ev.w, ev.b, ev.Dp, ev.scale)
			copy(ev.z[i*D:(i+1)*D], sc.h[:D])
		}
	})
}

// value returns the γ-step objective (1/2W)Σ w_i (yc − Z(γ)a)_i² (W = Σw,
// n without weights) at the a of the last setA, and, if grad is not nil,
// writes its gradient into grad.
func (ev *evaluator) value(gamma, grad []float64) float64 {
	ev.setGamma(gamma)
	d, Dp, B := ev.d, ev.Dp, blockRows
	inv := 1 / ev.wsum
	ev.run(func(blk int, sc *blockScratch) {
		lo, hi := blk*B, min(ev.n, (blk+1)*B)
		part := ev.part[blk*(d+1) : (blk+1)*(d+1)]
		var ss float64
		for i := lo; i < hi; i++ {
			x := ev.X.Row(i)
			xa := ev.gather(sc.x, x)
			r := ev.yc[i] - asm.CosSum(xa, ev.w, Dp, ev.b, ev.sa)
			wr := r // w_i·r_i
			if ev.wt != nil {
				wr = float64(ev.wt[i] * r)
			}
			ss += float64(wr * r)
			if grad == nil {
				continue
			}
			u := -wr * inv
			for k, v := range x {
				sc.xu[k*B+i-lo] = float64(u * v)
			}
			asm.CosAffine(sc.s[(i-lo)*Dp:(i-lo+1)*Dp], xa, ev.w, ev.bs, Dp, ev.scale)
		}
		part[0] = ss
		if grad == nil {
			return
		}
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
	workers := min(runtime.GOMAXPROCS(0), ev.blocks)
	if workers <= 1 || ev.n*ev.d*ev.D < parallelWork {
		sc := ev.pool.Get().(*blockScratch)
		for blk := 0; blk < ev.blocks; blk++ {
			f(blk, sc)
		}
		ev.pool.Put(sc)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := ev.pool.Get().(*blockScratch)
			for {
				blk := int(next.Add(1) - 1)
				if blk >= ev.blocks {
					break
				}
				f(blk, sc)
			}
			ev.pool.Put(sc)
		}()
	}
	wg.Wait()
}
