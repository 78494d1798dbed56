package srff

import (
	"math"
	"slices"
	"sync"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/learners"
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
//   - the features z_ij = s·cos θ_ij of the block's rows go into
//     the n×(D+1) matrix ev.z (column D holds the centred targets, for the
//     a-step's Zᵀyc), which the a-step's Gram matrix reads too: ev.z
//     is kept with the γ it was computed at (zGamma), and the a-step after
//     an accepted γ-step finds the features of its γ already there, as
//     does the gradient at the start of the next γ-step;
//   - the residual of row i is yc_i − Σ_j a_j·z_ij (dot4: four FMA chains
//     in a fixed order, as the a-step's objective); the a-step keeps the
//     residuals of its a, which the gradient at the same γ and a reuses;
//   - the phases θ = b + x·W are asm.AffineRows (register-blocked) into
//     the n×D matrix ev.th, kept with ev.z, and the features are
//     s·cos θ by asm.CosAffine at d = 0: the bits of asm.CosAffineRows,
//     i.e. of featmap's map;
//   - the gradient ∂J/∂γ_k = Σ_i (u_i·x_ik)·T_ik with u = −w·r/W and
//     T_ik = Σ_j sin θ_ij·(−(s·a_j)·ε_kj): per block of rows, sin θ is
//     asm.Sin of the kept phases (no second affine pass), T its product
//     with the D×d matrix −(s·a)⊙εᵀ by asm.AffineRows (the matrix packed
//     once per a), and the d sums run over the block's rows in order with
//     explicit FMAs.
//
// The phases θ use only the inputs with γ_k ≠ 0, or a few more with γ_k = 0
// (setGamma), gathered into the matrix xa when that set grows.
//
// An input that is exactly 0 on every row (a column that was constant
// before standardisation: on a sparse file most of them) takes no part in
// either pass: its terms x_ik·W_kj of the phases are exact zeros (see
// setGamma), and its gradient Σ_i (u_i·0)·T_ik, FMAs on exact zeros from a
// cleared sum, is exactly +0, which value writes without computing T_ik.
// Every other input is "live" (ev.live, in order), and the frequencies,
// the packed matrix −(s·a)⊙εᵀ and the gradient's product run over the live
// inputs only. The bits are those of the pass over all d inputs, and the
// cost per step is n·D·(live inputs) instead of n·D·d: a LIBSVM file of 1
// KB naming input 4096 has at most a few hundred live inputs, where the
// full passes and the D×d repack of every step cost seconds per λ.
//
// Internally the noise and phases are padded to Dp columns (a multiple of
// 8) with zeros.
type evaluator struct {
	X        featmap.Matrix // n×d standardised rows
	yc       []float64      // centred targets
	wt       []float64      // row weights (nil: all 1)
	wsum     float64        // Σ wt (n without weights)
	n, d     int
	D, Dp    int
	scale    float64   // √(2/D)
	live     []int     // the inputs not 0 on every row, in order
	eps      []float64 // ε of the live inputs, len(live)×Dp (zero-padded)
	b        []float64 // phases (Dp, zero-padded)
	w        []float64 // frequencies γ_k·ε_kj of the inputs xaAct, len(xaAct)×Dp
	act      []int     // the live inputs with γ_k ≠ 0, as indices into live, in order
	xaAct    []int     // the inputs in xa (indices into live): a superset of act
	xa       []float64 // the inputs xaAct of every row, n×len(xaAct)
	union    []int     // scratch of setGamma
	panels   *asm.AffinePanels
	a        []float64         // a (D)
	ct       []float64         // −(s·a_j)·ε_kj, D×len(live) (row j, column k live)
	cPanels  *asm.AffinePanels // ct packed for asm.AffineRows
	zeroD    []float64         // len(live) zeros: the phases of the gradient's product
	z        []float64         // features n×(D+1) at zGamma, yc in column D
	th       []float64         // phases θ n×(D+1) at zGamma (column D: 0)
	zGamma   []float64         // the γ of z (nil: z not computed)
	r        []float64         // residuals yc − Z(zGamma)·ra (n), if rOK
	ra       []float64         // the a of r
	rOK      bool
	gram     []float64 // per-stripe Gram matrices of ridge
	chol     []float64 // ZᵀZ + nλI and its Cholesky factor (D×D)
	blocks   int
	part     []float64        // per block: Σr² then the live inputs' gradient sums
	pool     sync.Pool        // of *blockScratch
	gramPool sync.Pool        // of *gramScratch
	threads  learners.Threads // Config.Threads: the goroutine limit of run and the Gram stripes
}

// blockScratch is one goroutine's working space for a block.
type blockScratch struct {
	s []float64 // blockRows × (D+1) sines
	t []float64 // blockRows × len(live): the sines times −a⊙εᵀ
}

// newEvaluator returns the evaluator of the rows X, centred targets yc
// and row weights w (nil: all 1) for the map of noise eps (d×D) and
// phases b.
func newEvaluator(X featmap.Matrix, yc, w, eps, b []float64, D int) *evaluator {
	return newEvaluatorLive(X, yc, w, eps, b, D, liveInputs(X))
}

// newEvaluatorLive is newEvaluator with the live inputs given (a superset
// of liveInputs(X), in order: the tests pass every input).
func newEvaluatorLive(X featmap.Matrix, yc, w, eps, b []float64, D int, live []int) *evaluator {
	n, d := X.Rows, X.Cols
	Dp := (D + 7) &^ 7
	de := len(live)
	ev := &evaluator{X: X, yc: yc, wt: w, wsum: weightSum(w, n), n: n, d: d, D: D, Dp: Dp, scale: math.Sqrt(2 / float64(D)),
		live: live, eps: make([]float64, de*Dp), b: make([]float64, Dp),
		w: make([]float64, de*Dp), act: make([]int, 0, de), a: make([]float64, D), ct: make([]float64, D*de),
		zeroD: make([]float64, de), r: make([]float64, n), ra: make([]float64, D)}
	for t, k := range live {
		copy(ev.eps[t*Dp:t*Dp+D], eps[k*D:(k+1)*D])
	}
	copy(ev.b, b)
	ev.blocks = (n + blockRows - 1) / blockRows
	ev.part = make([]float64, ev.blocks*(de+1))
	ev.pool.New = func() any {
		return &blockScratch{s: make([]float64, blockRows*(D+1)), t: make([]float64, blockRows*de)}
	}
	ev.gramPool.New = func() any { return newGramScratch(D) }
	return ev
}

// liveInputs returns the columns of X that are not 0 on every row, in
// order.
func liveInputs(X featmap.Matrix) []int {
	seen := make([]bool, X.Cols)
	for i := 0; i < X.Rows; i++ {
		for k, v := range X.Row(i) {
			if v != 0 {
				seen[k] = true
			}
		}
	}
	live := make([]int, 0, X.Cols)
	for k, ok := range seen {
		if ok {
			live = append(live, k)
		}
	}
	return live
}

// setGamma computes the frequencies W_kj = γ_k·ε_kj (one rounded product
// each, as scaledMap and the model do) of the inputs in
// ev.xaAct, a superset of those with γ_k ≠ 0, and packs them for
// asm.AffineRows; it gathers the inputs of every row into xa anew (and
// xaAct becomes the inputs with γ_k ≠ 0) when an input outside xaAct has
// γ_k ≠ 0 or when more than xaSlack(len(act)) of xaAct have γ_k = 0.
//
// The inputs left out of the phases θ_j = b_j + Σ_k x_k·W_kj, or kept in
// xa with γ_k = 0, add terms x_k·(±0): exact zeros, and adding a zero to an
// accumulator that starts at b_j ≥ 0 never changes it (it can never be
// −0), so the phases have the bits of the full sum, at a fraction of its
// cost once the simplex has zeroed most of γ, and the same bits whichever
// superset xa holds. Keeping a superset saves the gather (n·len(act)
// scalar copies, as costly as a good part of an affine pass) each time an
// input leaves the support and comes back, as inputs near the simplex's
// boundary do from one γ-step to the next. The gradient still covers every
// input.
func (ev *evaluator) setGamma(gamma []float64) {
	ev.act = ev.act[:0]
	for t, k := range ev.live {
		if gamma[k] != 0 {
			ev.act = append(ev.act, t)
		}
	}
	if ev.xa == nil || !subset(ev.act, ev.xaAct) || len(ev.xaAct)-len(ev.act) > xaSlack(len(ev.act)) {
		// Gather the union of act and the inputs gathered before when
		// the slack allows it: inputs near the simplex's boundary leave
		// and re-enter the support from one trial point to the next, and
		// each re-entry would otherwise cost a gather.
		ev.union = union(ev.union[:0], ev.act, ev.xaAct)
		if ev.xa == nil || len(ev.union)-len(ev.act) > xaSlack(len(ev.act)) {
			ev.union = append(ev.union[:0], ev.act...)
		}
		ev.xaAct, ev.union = ev.union, ev.xaAct
		if ev.xa == nil {
			ev.xa = make([]float64, ev.n*len(ev.live))
		}
		da := len(ev.xaAct)
		for i := 0; i < ev.n; i++ {
			x, dst := ev.X.Row(i), ev.xa[i*da:(i+1)*da]
			for t, l := range ev.xaAct {
				dst[t] = x[ev.live[l]]
			}
		}
	}
	for t, l := range ev.xaAct {
		row := ev.w[t*ev.Dp : (t+1)*ev.Dp]
		g := gamma[ev.live[l]]
		for j, v := range ev.eps[l*ev.Dp : (l+1)*ev.Dp] {
			row[j] = g * v
		}
	}
	da := len(ev.xaAct)
	ev.panels = ev.panels.Pack(ev.w[:da*ev.Dp], da, ev.D, ev.Dp)
}

// xaSlack is the number of inputs with γ_k = 0 that xa may keep beside
// the da inputs with γ_k ≠ 0 (each costs n·D multiply-adds per affine
// pass): an eighth, plus one.
func xaSlack(da int) int { return da/8 + 1 }

// union appends the sorted union of the sorted sets a and b to dst and
// returns it.
func union(dst, a, b []int) []int {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			dst = append(dst, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			dst = append(dst, b[j])
			j++
		default:
			dst = append(dst, a[i])
			i++
			j++
		}
	}
	return dst
}

// subset reports whether the sorted set a is contained in the sorted set b.
func subset(a, b []int) bool {
	j := 0
	for _, v := range a {
		for j < len(b) && b[j] < v {
			j++
		}
		if j == len(b) || b[j] != v {
			return false
		}
	}
	return true
}

// setA stores the weights a of the γ-step: a_j and the D×len(live)
// matrix −(s·a_j)·ε_kj (each product rounded; k the live inputs), packed
// for asm.AffineRows.
func (ev *evaluator) setA(a []float64) {
	copy(ev.a, a)
	d, D := len(ev.live), ev.D
	for j, v := range a {
		sa := float64(ev.scale * v)
		row := ev.ct[j*d : (j+1)*d]
		for k := range row {
			row[k] = -float64(sa * ev.eps[k*ev.Dp+j])
		}
	}
	ev.cPanels = ev.cPanels.Pack(ev.ct, D, d, d)
}

// haveFeatures reports whether ev.z holds the features at gamma.
func (ev *evaluator) haveFeatures(gamma []float64) bool {
	return ev.zGamma != nil && slices.Equal(ev.zGamma, gamma)
}

// featureRows computes the phases and features of rows [lo, hi) into
// ev.th and ev.z.
func (ev *evaluator) featureRows(lo, hi int) {
	da, D, ldz := len(ev.xaAct), ev.D, ev.D+1
	asm.AffineRows(ev.th[lo*ldz:], ldz, ev.xa[lo*da:], da, hi-lo, ev.panels, ev.b[:D], 0)
	// One cosine pass over the block's rows, column D (where θ is 0 and z
	// holds the targets) included, so that only the block's end leaves a
	// partial vector to the scalar twin; then the targets go back.
	ev.cosRows(lo, hi)
}

// alloc allocates ev.z, with the targets in column D.
func (ev *evaluator) alloc() {
	if ev.z != nil {
		return
	}
	ldz := ev.D + 1
	ev.z = make([]float64, ev.n*ldz)
	ev.th = make([]float64, ev.n*ldz)
	for i, v := range ev.yc {
		ev.z[i*ldz+ev.D] = v
	}
}

// features computes Z(γ) (n×D, the bits featmap's Transform gives) into
// ev.z, unless ev.z already holds it.
func (ev *evaluator) features(gamma []float64) {
	ev.alloc()
	if ev.haveFeatures(gamma) {
		return
	}
	ev.rOK = false
	ev.setGamma(gamma)
	ev.run(func(blk int, _ *blockScratch) {
		ev.featureRows(blk*blockRows, min(ev.n, (blk+1)*blockRows))
	})
	ev.zGamma = append(ev.zGamma[:0], gamma...)
}

// cosRows computes the features of rows [lo, hi) from the phases in
// ev.th, the cosine pass of featureRows.
func (ev *evaluator) cosRows(lo, hi int) {
	D, ldz := ev.D, ev.D+1
	th := ev.th[lo*ldz : hi*ldz]
	asm.CosAffine(ev.z[lo*ldz:hi*ldz], nil, nil, th, len(th), ev.scale)
	for i := lo; i < hi; i++ {
		ev.z[i*ldz+D] = ev.yc[i]
	}
}

// savePhases copies the phases of the features in ev.z (at ev.zGamma)
// into dst (n×(D+1)).
func (ev *evaluator) savePhases(dst []float64) { copy(dst, ev.th) }

// featuresFrom sets the features at gamma from phases: th, the phases
// savePhases kept for gamma (the bits of a fresh pass, which then costs
// no affine pass), or, if prev is not nil, the extrapolation
// th + β·(th − prev) of the phases th of x and prev of xPrev to
// gamma = x + β·(x − xPrev). The phases θ = b + x·(γ⊙ε) are linear in γ,
// so the extrapolated phases are those of gamma up to rounding, at n·D
// operations where an affine pass costs n·da·D (da inputs with γ_k ≠ 0:
// most of the 1000 on SE3).
func (ev *evaluator) featuresFrom(gamma, th, prev []float64, beta float64) {
	ev.alloc()
	ev.rOK = false
	ldz := ev.D + 1
	ev.run(func(blk int, _ *blockScratch) {
		lo, hi := blk*blockRows, min(ev.n, (blk+1)*blockRows)
		dst, src := ev.th[lo*ldz:hi*ldz], th[lo*ldz:hi*ldz]
		if prev == nil {
			copy(dst, src)
		} else {
			p := prev[lo*ldz : hi*ldz]
			for i, v := range src {
				dst[i] = v + float64(beta*(v-p[i]))
			}
		}
		ev.cosRows(lo, hi)
	})
	ev.zGamma = append(ev.zGamma[:0], gamma...)
}

// residuals sets ev.r to yc − Z·a at the features in ev.z, remembers a,
// and returns (1/2W)Σ w_i r_i².
func (ev *evaluator) residuals(a []float64) float64 {
	ev.residualRows(a, 0, ev.n)
	var ss float64
	for i, r := range ev.r {
		r2 := float64(r * r)
		if ev.wt != nil {
			r2 = float64(ev.wt[i] * r2)
		}
		ss += r2
	}
	copy(ev.ra, a)
	ev.rOK = true
	return ss / float64(2*ev.wsum)
}

// residualRows sets ev.r[i] = yc_i − dot4(a, z_i) for the rows [lo, hi),
// two rows at a time (dot4x2, the same bits).
func (ev *evaluator) residualRows(a []float64, lo, hi int) {
	D, ldz := ev.D, ev.D+1
	i := lo
	for ; i+2 <= hi; i += 2 {
		p, q := dot4x2(a, ev.z[i*ldz:i*ldz+D], ev.z[(i+1)*ldz:(i+1)*ldz+D])
		ev.r[i], ev.r[i+1] = ev.yc[i]-p, ev.yc[i+1]-q
	}
	if i < hi {
		ev.r[i] = ev.yc[i] - dot4(a, ev.z[i*ldz:i*ldz+D])
	}
}

// value returns the γ-step objective (1/2W)Σ w_i (yc − Z(γ)a)_i² (W = Σw,
// n without weights) at the a of the last setA, and, if grad is not nil,
// writes its gradient into grad. It leaves the features at γ in ev.z, and
// their residuals in ev.r.
func (ev *evaluator) value(gamma, grad []float64) float64 {
	ev.alloc()
	fresh := !ev.haveFeatures(gamma)
	if fresh {
		ev.setGamma(gamma) // the gradient reads the kept phases, not the frequencies
	}
	// The residuals of the a-step at these features and this a are kept.
	reuse := !fresh && ev.rOK && slices.Equal(ev.ra, ev.a)
	d, ldz, B := len(ev.live), ev.D+1, blockRows
	all := d == ev.d // every input live: the gradient sums need no index
	inv := 1 / ev.wsum
	ev.run(func(blk int, sc *blockScratch) {
		lo, hi := blk*B, min(ev.n, (blk+1)*B)
		part := ev.part[blk*(d+1) : (blk+1)*(d+1)]
		if fresh {
			ev.featureRows(lo, hi)
		}
		if !reuse {
			ev.residualRows(ev.a, lo, hi)
		}
		var ss float64
		for i := lo; i < hi; i++ {
			r := ev.r[i]
			wr := r // w_i·r_i
			if ev.wt != nil {
				wr = float64(ev.wt[i] * r)
			}
			ss += float64(wr * r)
		}
		part[0] = ss
		if grad == nil || d == 0 {
			return
		}
		asm.Sin(sc.s, ev.th[lo*ldz:hi*ldz]) // sin 0 = 0 in column D, which T does not read
		asm.AffineRows(sc.t, d, sc.s, ldz, hi-lo, ev.cPanels, ev.zeroD, 0)
		g := part[1:]
		clear(g)
		for i := lo; i < hi; i++ {
			wr := ev.r[i]
			if ev.wt != nil {
				wr = float64(ev.wt[i] * wr)
			}
			u := -wr * inv
			t := sc.t[(i-lo)*d : (i-lo+1)*d]
			x := ev.X.Row(i)
			if all {
				for k, v := range x {
					g[k] = math.FMA(float64(u*v), t[k], g[k])
				}
				continue
			}
			for l, k := range ev.live {
				g[l] = math.FMA(float64(u*x[k]), t[l], g[l])
			}
		}
	})
	if fresh {
		ev.zGamma = append(ev.zGamma[:0], gamma...)
	}
	if !reuse {
		copy(ev.ra, ev.a)
		ev.rOK = true
	}
	var ss float64
	if grad != nil {
		clear(grad)
	}
	for blk := 0; blk < ev.blocks; blk++ {
		part := ev.part[blk*(d+1) : (blk+1)*(d+1)]
		ss += part[0]
		if grad != nil { // the inputs that are not live keep their exact +0
			for l, k := range ev.live {
				grad[k] += part[1+l]
			}
		}
	}
	return ss * inv / 2
}

// run calls f on every block, on up to min(ev.threads, GOMAXPROCS)
// goroutines when the work is large enough. Blocks write disjoint results, so the order in which
// they run does not matter.
func (ev *evaluator) run(f func(blk int, sc *blockScratch)) {
	par.Each(int(ev.threads), ev.blocks, ev.n*len(ev.live)*ev.D < parallelWork, func() *blockScratch { return ev.pool.Get().(*blockScratch) },
		func(sc *blockScratch) { ev.pool.Put(sc) }, f)
}
