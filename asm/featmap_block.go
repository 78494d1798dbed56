package asm

import "fmt"

// The register-blocked affine map. CosAffine computes one row at a time with
// one W load per FMA, so at larger d it waits on loads (about half the FMA
// rate). CosAffineRows computes blocks of up to affineBlockRows rows × one
// panel of affinePanel columns: each W vector it loads feeds the FMAs of every
// row of the block (internal/gen/amd64/featmap.go for AVX-512 and AVX2,
// internal/gen/arm64/featmap.go for NEON; the generic path runs CosAffine on
// each row). It writes the phases θ = b + x·W of a block of rows into a stack
// tile and then scale·cos(θ) into dst with the one-row kernel at d = 0 (the
// cosines of its phases). Every θ is b[j] followed by one FMA per k in k
// order, the chain of CosAffine and of its twin, so the results are the same
// bits on every path, whichever kernel runs.

// affinePanel is the panel width in columns (internal/gen/amd64/featmap.go
// has the same constant): three ZMM vectors, six YMM vectors.
const affinePanel = 24

// affineBlockRows is the largest block of rows the kernels take.
const affineBlockRows = 8

// affineMinD is the smallest d for which CosAffineRows uses the blocked
// kernel; below it the rows go through CosAffine one at a time. It is 1
// because the blocked kernel measured no slower at any d (CPU time per op,
// one core, BenchmarkCosAffineRows and BenchmarkFeatureMap: AVX-512 1.0× the
// one-row kernel's time at d = 4 and 10, 0.78× at d = 18, 0.52× at d = 100;
// AVX2 0.78×, 0.64×, 0.36× at d = 10, 18, 100). A variable so that tests and
// benchmarks can force either kernel.
var affineMinD = 1

// AffinePanels is a d×D frequency matrix W (row-major, W[k·ldw + j]) together
// with a copy re-packed into panels of affinePanel columns for
// CosAffineRows: panel q holds columns [q·affinePanel, (q+1)·affinePanel) as d
// rows of affinePanel values, zero past column D. Pack once per map and reuse
// it; it is read-only and safe for concurrent use.
type AffinePanels struct {
	d, D int
	w    []float64 // W as given, for the one-row kernel
	ldw  int
	p    []float64
}

// NewAffinePanels packs w (d×D, row stride ldw ≥ D). It keeps a reference to
// w, which must not change afterwards. It panics if the shapes are
// inconsistent, as CosAffine does (callers check shapes once).
func NewAffinePanels(w []float64, d, D, ldw int) *AffinePanels {
	if d < 0 || D < 0 || ldw < D || (d > 0 && len(w) < (d-1)*ldw+D) {
		panic(fmt.Sprintf("asm.NewAffinePanels: shapes w %d, d %d, D %d, ldw %d", len(w), d, D, ldw))
	}
	np := (D + affinePanel - 1) / affinePanel
	a := &AffinePanels{d: d, D: D, w: w, ldw: ldw, p: make([]float64, np*d*affinePanel)}
	for q := 0; q < np; q++ {
		j0 := q * affinePanel
		j1 := min(D, j0+affinePanel)
		for k := 0; k < d; k++ {
			copy(a.p[(q*d+k)*affinePanel:], w[k*ldw+j0:k*ldw+j1])
		}
	}
	return a
}

// CosAffineRows computes n rows of a random Fourier feature map: for i < n,
// dst[i·ldd + j] = scale·cos(b[j] + Σ_k x[i·ldx + k]·W[k·ldw + j]) for
// j < D, the same bits as CosAffine on each row. len(b) must be D; ldd ≥ D and
// ldx ≥ d. It panics if the shapes are inconsistent.
func CosAffineRows(dst []float64, ldd int, x []float64, ldx, n int, a *AffinePanels, b []float64, scale float64) {
	if n < 0 || len(b) != a.D || ldd < a.D || ldx < a.d ||
		(n > 0 && (len(dst) < (n-1)*ldd+a.D || len(x) < (n-1)*ldx+a.d)) {
		panic(fmt.Sprintf("asm.CosAffineRows: shapes dst %d, ldd %d, x %d, ldx %d, n %d, b %d for d %d, D %d",
			len(dst), ldd, len(x), ldx, n, len(b), a.d, a.D))
	}
	if n == 0 || a.D == 0 {
		return
	}
	if a.d < affineMinD || !affineBlocked() {
		for i := 0; i < n; i++ {
			var xi []float64
			w := a.w
			if a.d > 0 {
				xi = x[i*ldx : i*ldx+a.d]
			} else {
				w = nil
			}
			cosAffine(dst[i*ldd:i*ldd+a.D], xi, w, b, a.ldw, scale)
		}
		return
	}
	cosAffineBlocked(dst, ldd, x, ldx, n, a, b, scale)
}

// affineMaxChunk bounds how many panels of θ one block of rows keeps in its
// stack tile: 8 rows × 32 panels × 24 columns × 8 bytes = 48 KiB.
const affineMaxChunk = 32

// cosAffineBlocked is CosAffineRows on a path with blocked kernels. For each
// block of rows it writes θ for a chunk of whole panels into a stack tile and
// then the cosines of the tile into dst, so dst is written once, by the
// cosine pass, and never read (writing θ into dst and taking the cosines in
// place measured slower: the FMA loop then meets dst's first-touch misses).
// Long rows are cut into equal chunks of at most affineMaxChunk panels:
// fewer, longer calls of the cosine kernel measured faster than L1-sized
// ones. Whole panels are whole vectors, so no row leaves a scalar tail to the
// twin. The last, partial panel runs on its own, with zero-padded phases,
// into a small contiguous tile whose cosines are one call for all the rows of
// the block (padding lanes included); only its first rem columns are copied
// out.
//
// Tried and dropped (Intel Xeon test machine, one core, CPU time,
// interleaved runs): a streaming-store (VMOVNTPD) variant of the cosine pass
// for large dst measured no faster at (10000, 10, 1000) and (10000, 100,
// 1000) and 1.3× slower at (50000, 18, 300), where rows of 300 columns leave
// partial lines mixed with ordinary stores; taking k two at a time in the
// blocked kernel and 8-panel chunks instead of 32 measured no different. The
// product runs at the FMA rate BenchmarkAffineFloor measures in L1 and the
// cosines at the cos pass's rate, so the remaining time is the floor's.
func cosAffineBlocked(dst []float64, ldd int, x []float64, ldx, n int, a *AffinePanels, b []float64, scale float64) {
	d, D := a.d, a.D
	full := D / affinePanel
	rem := D - full*affinePanel
	chunks := max(1, (full+affineMaxChunk-1)/affineMaxChunk)
	chunk := (full + chunks - 1) / chunks
	var tile [affineBlockRows * affineMaxChunk * affinePanel]float64
	var tail [affineBlockRows * affinePanel]float64
	var bt [affinePanel]float64
	copy(bt[:], b[full*affinePanel:])
	last := a.p[full*d*affinePanel:]
	for i0 := 0; i0 < n; i0 += affineBlockRows {
		end := min(n, i0+affineBlockRows)
		for q0 := 0; q0 < full; q0 += chunk {
			nq := min(chunk, full-q0)
			ldt := nq * affinePanel
			p := a.p[q0*d*affinePanel:]
			for i := i0; i < end; {
				r := blockRows(end - i)
				affineBlock(r, tile[(i-i0)*ldt:], ldt, x[i*ldx:], ldx, d, p, b[q0*affinePanel:], nq)
				i += r
			}
			for i := i0; i < end; i++ {
				o := i*ldd + q0*affinePanel
				cosAffine(dst[o:o+ldt], nil, nil, tile[(i-i0)*ldt:(i-i0+1)*ldt], 0, scale)
			}
		}
		if rem == 0 {
			continue
		}
		for i := i0; i < end; {
			r := blockRows(end - i)
			affineBlock(r, tail[(i-i0)*affinePanel:], affinePanel, x[i*ldx:], ldx, d, last, bt[:], 1)
			i += r
		}
		t := tail[:(end-i0)*affinePanel]
		cosAffine(t, nil, nil, t, 0, scale) // in place: each lane reads θ before it writes
		for i := i0; i < end; i++ {
			copy(dst[i*ldd+full*affinePanel:i*ldd+D], tail[(i-i0)*affinePanel:])
		}
	}
}

// blockRows is the largest block the kernels take (8, 4, 2 or 1 rows) that
// fits in left > 0 rows.
func blockRows(left int) int {
	r := affineBlockRows
	for r > left {
		r /= 2
	}
	return r
}
