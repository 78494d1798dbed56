package asm

import (
	"fmt"
	"sync"

	"github.com/rfkit/rfkit/internal/cpu"
)

// The reduction kernels below are the fused inner sums of rfkit's learners.
// Each makes one pass over its elements, accumulating into caller-owned lane
// accumulators: element i (counted from the start of the slices) feeds lane
// i mod 8, the lanes of an accumulator receive their elements in order, and
// SumLanes combines the eight lanes by a fixed tree. The result is therefore
// the same bits on every path (AVX-512, AVX2, NEON, the pure-Go twin),
// whatever the vector width. Callers that split long sums into chunks (for
// several goroutines) must start each chunk at a multiple of 8 and combine
// the chunks in a fixed order.
//
// Every exponential is exp(clamp(x, −700, 700)) — a safeguard that keeps
// each term finite — computed as Exp (≤ 1 ULP); every cos and sin is as in
// Cos and Sin (≤ 1 ULP, any argument). NaN inputs give NaN sums. The kernels
// panic on inconsistent lengths: they are hot-path building blocks, and the
// packages above them check shapes once per call and return errors.

// PanelLen is the number of elements one iteration of the selected path's
// dot reductions (FreqStepSums, SincosDot, LandmarkSums, DotStats, CosSum)
// takes from every matrix row: 64 on AVX-512, whose blocked loop reads
// eight groups of a row (512 bytes) before the next row, and 0 on the other
// paths. A matrix stored in panels of PanelLen elements × d, column-major
// inside each panel and swept one call per panel (or by FreqStepSumsPanels
// and SincosDotPanels, one call for many panels), is then read as one
// forward stream. The other paths take one group at a time (AVX2's
// SincosDot and FreqStepSums: four groups, prefetching each row of the
// matrix ahead) and read a column-major matrix (ld = the whole length). The
// bits do not depend on the layout.
func PanelLen() int {
	if path == cpu.AVX512 {
		return 64
	}
	return 0
}

// panelLen is the panel width of the Panels variants: element (k, i) of
// their matrices is at mat[(i/panelLen)·panelLen·d + k·panelLen + i%panelLen].
const panelLen = 64

// checkPanels reports whether xp holds n elements of d rows in panels of
// panelLen (the last panel may stop after its last element).
func checkPanels(xp []float64, d, n int) bool { return checkPanelsLen(len(xp), d, n) }

// checkPanelsLen is checkPanels for a matrix of l elements of any type.
func checkPanelsLen(l, d, n int) bool {
	if d == 0 || n == 0 {
		return true
	}
	full, rest := n/panelLen, n%panelLen
	need := full * panelLen * d
	if rest > 0 {
		need += (d-1)*panelLen + rest
	}
	return l >= need
}

// sumsPanels runs reduction k over elements [0, n) of frame f whose
// matrices (f.a.mat) are stored in panels of panelLen: the panel variant
// over whole panels where the selected path has one, and every other panel
// (a block failing a domain check, the last partial panel, paths without a
// panel variant) on its own through sumsRun, with ld = panelLen. Panels start
// at multiples of eight, so every path feeds each lane the same elements in
// the same order: the bits of one column-major sweep.
func sumsPanels(k sumsKernel, f *sumsFrame, n int) {
	sumsPanelsOf(k, f, n, nil)
}

// sumsPanelsOf is sumsPanels; with xp32 set, matrix 0 is the float32 panels
// xp32 (f.a.mat[0] points at them): the Panels32 variant runs over whole
// panels where the selected path has one, and every other panel is widened
// exactly into a float64 panel on the stack (or, for d > maxStackPanelRows,
// on the heap) and swept as a float64 panel, so the bits are those of the
// float64 panels holding the widened values.
func sumsPanelsOf(k sumsKernel, f *sumsFrame, n int, xp32 []float32) {
	f.a.ld = panelLen
	mats := f.a.mat
	ins, outs := f.a.in, f.a.out
	d := f.a.d
	pstride := panelLen * d
	full := n - n%panelLen
	var stack [panelLen * maxStackPanelRows]float64
	var wide []float64
	var stashed sumsFrame
	var st *[panelLen * maxStashRows]float64
	i := 0
	for i < n {
		if i < full {
			f.a.i, f.a.n = i, full
			pf := f
			if xp32 != nil && k == kFreqStep && d <= maxStashRows {
				// The stash of the float32 FreqStep body (its dot loop's
				// widened rows, read again by its row accumulation), in
				// frame slot mat[1], which FreqStep does not otherwise
				// use; a local copy of the frame carries it.
				if st == nil {
					st = stashPool.Get().(*[panelLen * maxStashRows]float64) // put back below
				}
				stashed.a = f.a
				stashed.a.mat[1] = &st[0]
				pf = &stashed
			}
			j, ok := sumsPanelsAsm(k, pf, xp32 != nil)
			if ok {
				i = j
				if i >= n {
					break
				}
			}
		}
		// One panel on its own.
		e := min(i+panelLen, n)
		var g sumsFrame
		g.a = f.a
		for s := range ins {
			g.a.in[s] = offset(ins[s], i)
		}
		for s := range outs {
			g.a.out[s] = offset(outs[s], i)
		}
		for m := range mats {
			if m == 0 && xp32 != nil {
				continue // set below: never a float64 offset into float32 data
			}
			g.a.mat[m] = offset(mats[m], (i/panelLen)*pstride)
		}
		if xp32 != nil && d > 0 {
			if wide == nil {
				wide = stack[:]
				if d > maxStackPanelRows {
					wide = make([]float64, pstride)
				}
			}
			// The rows of the panel up to its last element (the last
			// panel may stop early).
			src := xp32[(i/panelLen)*pstride:]
			m := (d-1)*panelLen + (e - i)
			for j, v := range src[:m] {
				wide[j] = float64(v)
			}
			g.a.mat[0] = ptr(wide)
		}
		sumsRun(k, &g, e-i)
		i = e
	}
	if st != nil {
		// not deferred: a defer inside the loop allocated its record on
		// the heap at every call (≈ 10 MB of garbage over a 300-round fit
		// at n = 10⁶, which the GC, paced by the live heap, let grow)
		stashPool.Put(st)
	}
}

// maxStackPanelRows is the largest d whose widened float32 panel lives on
// the stack of sumsPanelsOf.
const maxStackPanelRows = 32

// maxStashRows is the largest d for which the float32 FreqStep body gets a
// stash (64·d widened values, see stashRows in internal/gen/amd64/sums.go);
// larger d widen every element twice.
const maxStashRows = 64

// stashPool holds the stashes of the float32 FreqStep sweeps: heap buffers,
// reused. (A stash in sumsPanelsOf's own frame, on the goroutine stack,
// measured 22 % slower than the same kernel with a heap stash at n = 98304,
// d = 20: slower than widening twice.)
var stashPool = sync.Pool{New: func() any { return new([panelLen * maxStashRows]float64) }}

func sumsPanic(fn string, args ...any) {
	panic(fmt.Sprintf("asm.%s: inconsistent lengths %v", fn, args))
}

// checkMat reports whether mat holds d rows of n elements with row stride ld.
func checkMat(mat []float64, d, n, ld int) bool {
	return ld >= n && (d == 0 || n == 0 || len(mat) >= (d-1)*ld+n)
}

// Weights is the boosting weight update, for every i:
//
//	H[i] = math.FMA(alpha, h[i], H[i])
//	w := exp(clamp(−y[i]·H[i], −700, 700))
//	yt[i] = y[i]·w
//	acc[i%8] += w
func Weights(yt, H, y, h []float64, alpha float64, acc *[8]float64) {
	n := len(y)
	if len(yt) < n || len(H) < n || len(h) < n {
		sumsPanic("Weights", len(yt), len(H), len(y), len(h))
	}
	var f sumsFrame
	f.a.in[0], f.a.in[1], f.a.in[2] = ptr(y), ptr(H), ptr(h)
	f.a.out[0], f.a.out[1] = ptr(yt), ptr(H)
	f.a.par[0] = alpha
	f.a.acc = &acc[0]
	sumsRun(kWeights, &f, n)
}

// PhaseSums evaluates the phase objective of GBRFF2 at one phase b, given
// cb = cos b and sb = sin b: for every i, with t = math.FMA(c[i], cb, s[i]·sb)
// and e = exp(clamp(−yt[i]·t, −700, 700)),
//
//	acc[0][i%8] += e
//	acc[1][i%8] += (e·yt[i])·math.FMA(s[i], cb, −(c[i]·sb))
//
// so that f(b) = Σe and f'(b) = −(the second sum).
func PhaseSums(c, s, yt []float64, cb, sb float64, acc *[2][8]float64) {
	n := len(yt)
	if len(c) < n || len(s) < n {
		sumsPanic("PhaseSums", len(c), len(s), len(yt))
	}
	var f sumsFrame
	f.a.in[0], f.a.in[1], f.a.in[2] = ptr(c), ptr(s), ptr(yt)
	f.a.par[0], f.a.par[1] = cb, sb
	f.a.acc = &acc[0][0]
	sumsRun(kPhase, &f, n)
}

// SincosDot computes, for i < len(sin), p = Σ_k vec[k]·mat[k·ld+i] (one FMA
// per term from zero, in k order), sin[i] = sin p and cos[i] = cos p. mat is
// column-major data: row k holds feature k of every element.
func SincosDot(sin, cos, mat []float64, ld int, vec []float64) {
	n, d := len(sin), len(vec)
	if len(cos) < n || !checkMat(mat, d, n, ld) {
		sumsPanic("SincosDot", len(sin), len(cos), len(mat), ld, len(vec))
	}
	var f sumsFrame
	f.a.out[0], f.a.out[1] = ptr(sin), ptr(cos)
	f.a.mat[0], f.a.vec[0] = ptr(mat), ptr(vec)
	f.a.d, f.a.ld = d, ld
	sumsRun(kSincosDot, &f, n)
}

// SincosDotPanels is SincosDot over a matrix stored in panels of 64
// elements: input k of element i at xp[(i/64)·64·d + k·64 + i%64], d =
// len(vec) (see FreqStepSumsPanels). Same bits as SincosDot on every path.
func SincosDotPanels(sin, cos, xp []float64, vec []float64) {
	n, d := len(sin), len(vec)
	if len(cos) < n || !checkPanels(xp, d, n) {
		sumsPanic("SincosDotPanels", len(sin), len(cos), len(xp), len(vec))
	}
	var f sumsFrame
	f.a.out[0], f.a.out[1] = ptr(sin), ptr(cos)
	f.a.mat[0], f.a.vec[0] = ptr(xp), ptr(vec)
	f.a.d = d
	sumsPanels(kSincosDot, &f, n)
}

// SincosDotPanels32 is SincosDotPanels over a float32 matrix in the same
// panel layout: every element is widened exactly to float64 before its FMA,
// so the result is the bits of SincosDotPanels over the widened values, on
// every path, while the sweep reads half the bytes.
func SincosDotPanels32(sin, cos []float64, xp []float32, vec []float64) {
	n, d := len(sin), len(vec)
	if len(cos) < n || !checkPanelsLen(len(xp), d, n) {
		sumsPanic("SincosDotPanels32", len(sin), len(cos), len(xp), len(vec))
	}
	var f sumsFrame
	f.a.out[0], f.a.out[1] = ptr(sin), ptr(cos)
	f.a.mat[0], f.a.vec[0] = ptr32(xp), ptr(vec)
	f.a.d = d
	sumsPanelsOf(kSincosDot, &f, n, xp)
}

// SincosStats computes, for i < len(h), with s, c = sin p[i], cos p[i] (as
// Sincos):
//
//	h[i] = math.FMA(sb, s, math.FMA(cb, c, 0))
//	acc[i%8] += yt[i]·h[i]
//
// — the bits of Sincos(s, c, p) followed by DotStats(h, yt, c, [cb], s, [sb],
// n, acc), in one pass that neither stores s and c nor reads them back. With
// p the projections ω·x stored by FreqStepSums and (cb, sb) = (cos b, sin b),
// h is the cosine cos(ω·x − b) of a GBRFF2 term and the sum its correlation
// with yt.
func SincosStats(h, yt, p []float64, cb, sb float64, acc *[8]float64) {
	n := len(h)
	if len(yt) < n || len(p) < n {
		sumsPanic("SincosStats", len(h), len(yt), len(p))
	}
	var f sumsFrame
	f.a.in[0], f.a.in[1], f.a.out[0] = ptr(p), ptr(yt), ptr(h)
	f.a.par[0], f.a.par[1] = cb, sb
	f.a.acc = &acc[0]
	sumsRun(kSincosStats, &f, n)
}

// DotStats computes, for i < len(h), h[i] = Σ_k v1[k]·m1[k·ld+i] accumulated
// onto Σ_k v0[k]·m0[k·ld+i] (one FMA per term, from zero, m0 first), and
// acc[i%8] += yt[i]·h[i]. m0 and m1 have len(v0) = len(v1) rows.
func DotStats(h, yt, m0, v0, m1, v1 []float64, ld int, acc *[8]float64) {
	n, d := len(h), len(v0)
	if len(yt) < n || len(v1) != d || !checkMat(m0, d, n, ld) || !checkMat(m1, d, n, ld) {
		sumsPanic("DotStats", len(h), len(yt), len(m0), len(v0), len(m1), len(v1), ld)
	}
	var f sumsFrame
	f.a.in[0], f.a.out[0] = ptr(yt), ptr(h)
	f.a.mat[0], f.a.vec[0], f.a.mat[1], f.a.vec[1] = ptr(m0), ptr(v0), ptr(m1), ptr(v1)
	f.a.d, f.a.ld = d, ld
	f.a.acc = &acc[0]
	sumsRun(kDotStats, &f, n)
}

// FreqStepSums is one sweep of the GBRFF2 frequency objective over the
// elements i < len(yt) of column-major data xt (row k holds feature k, row
// stride ld): with p = Σ_k omega[k]·xt[k·ld+i] (one FMA per term from zero,
// in k order: the bits of SincosDot's), t = p − b, e = exp(clamp(−yt[i]·cos
// t, −700, 700)) and r = (yt[i]·sin t)·e,
//
//	proj[i] = p
//	acc[i%8] += e
//	accX[k][i%8] = math.FMA(r, xt[k·ld+i], accX[k][i%8])   for k < len(omega)
//
// so Sincos of proj is SincosDot at omega without another read of xt.
func FreqStepSums(proj, yt, xt []float64, ld int, omega []float64, b float64, acc *[8]float64, accX [][8]float64) {
	n, d := len(yt), len(omega)
	if len(proj) < n || len(accX) < d || !checkMat(xt, d, n, ld) {
		sumsPanic("FreqStepSums", len(proj), len(yt), len(xt), ld, len(omega), len(accX))
	}
	var f sumsFrame
	f.a.in[0], f.a.out[0] = ptr(yt), ptr(proj)
	f.a.mat[0], f.a.vec[0] = ptr(xt), ptr(omega)
	f.a.d, f.a.ld, f.a.par[0] = d, ld, b
	f.a.acc = &acc[0]
	f.a.accm[0] = lanePtr(accX[:d])
	sumsRun(kFreqStep, &f, n)
}

// FreqStepSumsPanels is FreqStepSums over data stored in panels of 64
// elements: input k of element i at xp[(i/64)·64·d + k·64 + i%64], d =
// len(omega) (the layout of exploss.Data on AVX-512). The result is the bits
// of FreqStepSums over the same values in any layout, on every path; with
// AVX-512 one call sweeps every panel, which saves a call per panel and lets
// the kernel prefetch the panels ahead of it.
func FreqStepSumsPanels(proj, yt, xp []float64, omega []float64, b float64, acc *[8]float64, accX [][8]float64) {
	n, d := len(yt), len(omega)
	if len(proj) < n || len(accX) < d || !checkPanels(xp, d, n) {
		sumsPanic("FreqStepSumsPanels", len(proj), len(yt), len(xp), len(omega), len(accX))
	}
	var f sumsFrame
	f.a.in[0], f.a.out[0] = ptr(yt), ptr(proj)
	f.a.mat[0], f.a.vec[0] = ptr(xp), ptr(omega)
	f.a.d, f.a.par[0] = d, b
	f.a.acc = &acc[0]
	f.a.accm[0] = lanePtr(accX[:d])
	sumsPanels(kFreqStep, &f, n)
}

// FreqStepSumsPanels32 is FreqStepSumsPanels over a float32 matrix in the
// same panel layout: every element is widened exactly to float64 before it
// is used, so the result is the bits of FreqStepSumsPanels (and
// FreqStepSums) over the widened values, on every path. With AVX-512 the
// sweep reads 4 bytes per element of X instead of 8 (VCVTPS2PD in the
// kernel), which at n = 10⁵, d = 20 is most of its memory traffic.
func FreqStepSumsPanels32(proj, yt []float64, xp []float32, omega []float64, b float64, acc *[8]float64, accX [][8]float64) {
	n, d := len(yt), len(omega)
	if len(proj) < n || len(accX) < d || !checkPanelsLen(len(xp), d, n) {
		sumsPanic("FreqStepSumsPanels32", len(proj), len(yt), len(xp), len(omega), len(accX))
	}
	var f sumsFrame
	f.a.in[0], f.a.out[0] = ptr(yt), ptr(proj)
	f.a.mat[0], f.a.vec[0] = ptr32(xp), ptr(omega)
	f.a.d, f.a.par[0] = d, b
	f.a.acc = &acc[0]
	f.a.accm[0] = lanePtr(accX[:d])
	sumsPanelsOf(kFreqStep, &f, n, xp)
}

// LandmarkSums is one sweep of the GBRFF1 landmark objective over the
// elements i < len(yt), given C = cos Pᵀ and S = sin Pᵀ (row k holds
// frequency k of every element, row stride ld) and the vectors ca, sa
// (cos a_k/K and sin a_k/K): with m = Σ_k sa[k]·S[k,i] accumulated onto
// Σ_k ca[k]·C[k,i], e = exp(clamp(−yt[i]·m, −700, 700)) and r = yt[i]·e,
//
//	acc[i%8] += e
//	accC[k][i%8] = math.FMA(r, C[k,i], accC[k][i%8])
//	accS[k][i%8] = math.FMA(r, S[k,i], accS[k][i%8])
func LandmarkSums(yt, C, S []float64, ld int, ca, sa []float64, acc *[8]float64, accC, accS [][8]float64) {
	n, K := len(yt), len(ca)
	if len(sa) != K || len(accC) < K || len(accS) < K || !checkMat(C, K, n, ld) || !checkMat(S, K, n, ld) {
		sumsPanic("LandmarkSums", len(yt), len(C), len(S), ld, len(ca), len(sa), len(accC), len(accS))
	}
	var f sumsFrame
	f.a.in[0] = ptr(yt)
	f.a.mat[0], f.a.vec[0], f.a.mat[1], f.a.vec[1] = ptr(C), ptr(ca), ptr(S), ptr(sa)
	f.a.d, f.a.ld = K, ld
	f.a.acc = &acc[0]
	f.a.accm[0], f.a.accm[1] = lanePtr(accC[:K]), lanePtr(accS[:K])
	sumsRun(kLandmark, &f, n)
}

// CosSum is the feature-map epilogue for one row x: it returns
// SumLanes(acc) where, for j < len(b),
//
//	v := b[j]; for k := range x { v = math.FMA(x[k], w[k·ldw+j], v) }
//	acc[j%8] += a[j]·cos(v)
//
// — Σ_j a[j]·cos(x·w_j + b[j]) without storing the features.
func CosSum(x, w []float64, ldw int, b, a []float64) float64 {
	D, d := len(b), len(x)
	if len(a) < D || !checkMat(w, d, D, ldw) {
		sumsPanic("CosSum", len(x), len(w), ldw, len(b), len(a))
	}
	var acc [8]float64
	var f sumsFrame
	f.a.in[0], f.a.in[1] = ptr(b), ptr(a)
	f.a.mat[0], f.a.vec[0] = ptr(w), ptr(x)
	f.a.d, f.a.ld = d, ldw
	f.a.acc = &acc[0]
	sumsRun(kCosSum, &f, D)
	return SumLanes(&acc)
}
