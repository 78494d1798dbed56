package asm

import "fmt"

// The register-blocked affine map. CosAffine computes one row at a time with
// one W load per FMA, so at larger d it waits on loads (about half the FMA
// rate). CosAffineRows computes blocks of up to affineBlockRows rows × one
// panel of affinePanel columns: each W vector it loads feeds the FMAs of every
// row of the block (internal/gen/amd64/featmap.go). It writes the phases
// θ = b + x·W of a block of rows straight into dst and then turns each row into
// scale·cos(θ) in place with the one-row kernel (d = 0), while the rows are
// still in L1. Every θ is b[j] followed by one FMA per k in k order, the chain
// of CosAffine and of its twin, so the results are the same bits on every
// path, whichever kernel runs.

// affinePanel is the panel width in columns (internal/gen/amd64/featmap.go
// has the same constant): three ZMM vectors, six YMM vectors.
const affinePanel = 24

// affineBlockRows is the largest block of rows the kernels take.
const affineBlockRows = 8

// affineMinD is the smallest d for which CosAffineRows uses the blocked
// kernel; below it the rows go through CosAffine one at a time. A variable so
// that tests and benchmarks can force either kernel.
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

// cosAffineBlocked is CosAffineRows on a path with blocked kernels. The last,
// partial panel goes through a stack tile (the kernels always write whole
// panels) with its phases padded by zeros.
func cosAffineBlocked(dst []float64, ldd int, x []float64, ldx, n int, a *AffinePanels, b []float64, scale float64) {
	d, D := a.d, a.D
	full := D / affinePanel
	rem := D - full*affinePanel
	var tile [affineBlockRows * affinePanel]float64
	var bt [affinePanel]float64
	copy(bt[:], b[full*affinePanel:])
	last := a.p[full*d*affinePanel:]
	for i0 := 0; i0 < n; i0 += affineBlockRows {
		end := min(n, i0+affineBlockRows)
		for i := i0; i < end; {
			r := affineBlockRows
			for r > end-i {
				r /= 2
			}
			xi := x[i*ldx:]
			if full > 0 {
				affineBlock(r, dst[i*ldd:], ldd, xi, ldx, d, a.p, b, full)
			}
			if rem > 0 {
				affineBlock(r, tile[:], affinePanel, xi, ldx, d, last, bt[:], 1)
				for k := 0; k < r; k++ {
					o := (i+k)*ldd + full*affinePanel
					copy(dst[o:o+rem], tile[k*affinePanel:])
				}
			}
			i += r
		}
		for i := i0; i < end; i++ {
			row := dst[i*ldd : i*ldd+D]
			cosAffine(row, nil, nil, row, 0, scale) // in place: each lane reads θ before it writes
		}
	}
}
