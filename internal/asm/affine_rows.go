package asm

import (
	"fmt"
	"math"
)

// AffineWidth is the panel width of AffinePanels in columns: AffineRows
// starts its columns at a multiple of it.
const AffineWidth = affinePanel

// Pack re-packs a for the d×D matrix w (row stride ldw ≥ D), as
// NewAffinePanels does, reusing a's storage when it is large enough: for
// callers that pack a new matrix of the same shape many times (a nil a
// allocates). It keeps a reference to w, which must not change while a is
// in use, and returns a. It panics if the shapes are inconsistent.
func (a *AffinePanels) Pack(w []float64, d, D, ldw int) *AffinePanels {
	if a == nil {
		return NewAffinePanels(w, d, D, ldw)
	}
	if d < 0 || D < 0 || ldw < D || (d > 0 && len(w) < (d-1)*ldw+D) {
		panic(fmt.Sprintf("asm.AffinePanels.Pack: shapes w %d, d %d, D %d, ldw %d", len(w), d, D, ldw))
	}
	np := (D + affinePanel - 1) / affinePanel
	if need := np * d * affinePanel; cap(a.p) >= need {
		a.p = a.p[:need]
	} else {
		a.p = make([]float64, need)
	}
	a.d, a.D, a.w, a.ldw = d, D, w, ldw
	for q := 0; q < np; q++ {
		j0 := q * affinePanel
		j1 := min(D, j0+affinePanel)
		for k := 0; k < d; k++ {
			o := (q*d + k) * affinePanel
			copy(a.p[o:], w[k*ldw+j0:k*ldw+j1])
			clear(a.p[o+j1-j0 : o+affinePanel])
		}
	}
	return a
}

// AffineRows computes the phases of CosAffineRows without their cosines: a
// product of a matrix with W at the blocked kernels' rate, for i < n and
// lo ≤ j < D,
//
//	dst[i·ldd + j] = b[j] + Σ_k x[i·ldx + k]·W[k·ldw + j],
//
// b[j] followed by one FMA per k in k order (the chain of CosAffineRows's
// phases and of the scalar twin), so the same bits on every path. lo must
// be a multiple of AffineWidth in [0, D]: a caller that needs the columns
// from c on passes lo = c − c mod AffineWidth (the blocked kernels work in
// whole panels). Columns below lo are not written. len(b) must be D; ldd ≥ D
// and ldx ≥ d. It panics if the shapes are inconsistent.
func AffineRows(dst []float64, ldd int, x []float64, ldx, n int, a *AffinePanels, b []float64, lo int) {
	d, D := a.d, a.D
	if n < 0 || len(b) != D || ldd < D || ldx < d || lo < 0 || lo > D || lo%affinePanel != 0 ||
		(n > 0 && (len(dst) < (n-1)*ldd+D || len(x) < (n-1)*ldx+d)) {
		panic(fmt.Sprintf("asm.AffineRows: shapes dst %d, ldd %d, x %d, ldx %d, n %d, b %d, lo %d for d %d, D %d",
			len(dst), ldd, len(x), ldx, n, len(b), lo, d, D))
	}
	if n == 0 || lo == D {
		return
	}
	if d == 0 {
		for i := 0; i < n; i++ {
			copy(dst[i*ldd+lo:i*ldd+D], b[lo:])
		}
		return
	}
	if !affineBlocked() {
		for i := 0; i < n; i++ {
			affineRowRef(dst[i*ldd:i*ldd+D], x[i*ldx:i*ldx+d], a.w, b, a.ldw, lo)
		}
		return
	}
	full := D / affinePanel
	rem := D - full*affinePanel
	q0 := lo / affinePanel
	var tail [affineBlockRows * affinePanel]float64
	var bt [affinePanel]float64
	if rem > 0 {
		copy(bt[:], b[full*affinePanel:])
	}
	for i := 0; i < n; {
		r := blockRows(n - i)
		if full > q0 {
			affineBlock(r, dst[i*ldd+q0*affinePanel:], ldd, x[i*ldx:], ldx, d, a.p[q0*d*affinePanel:], b[q0*affinePanel:], full-q0)
		}
		if rem > 0 {
			affineBlock(r, tail[:], affinePanel, x[i*ldx:], ldx, d, a.p[full*d*affinePanel:], bt[:], 1)
			for t := 0; t < r; t++ {
				copy(dst[(i+t)*ldd+full*affinePanel:(i+t)*ldd+D], tail[t*affinePanel:])
			}
		}
		i += r
	}
}

// affineRowRef is the scalar twin of one row of AffineRows: columns
// [lo, len(dst)) of b + x·W. Each element is b[j] followed by one FMA per
// k in k order; the loops run over k outside and j inside, so that W is
// read along its rows.
func affineRowRef(dst, x, w, b []float64, ldw, lo int) {
	out := dst[lo:]
	copy(out, b[lo:len(dst)])
	for k, xk := range x {
		wk := w[k*ldw+lo : k*ldw+len(dst)]
		for j, v := range wk {
			out[j] = math.FMA(xk, v, out[j])
		}
	}
}
