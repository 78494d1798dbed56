package srff

import (
	"errors"
	"math"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/learners/internal/par"
)

// gramStripes bounds the number of row stripes whose Gram matrices are
// formed on their own (in parallel) and then added in order. The stripes
// depend only on n, so the result does not depend on GOMAXPROCS, and their
// number is bounded, so the scratch (stripes·D² floats) does not grow with n.
const gramStripes = 16

// errNotPD reports a failed Cholesky factorisation.
var errNotPD = errors.New("ZᵀZ + nλI is not positive definite to working precision (λ too small)")

// ridge sets a to (ZᵀZ + nλI)⁻¹Zᵀyc for the features ev.z of the last
// ev.features call; with row weights, to (ZᵀWZ + WλI)⁻¹ZᵀW·yc, W = Σw.
//
// It is solvers.Ridge without the intercept, written out here so that the
// Gram matrix, the a-step's main cost (n·D²/2 multiply-adds), runs at the
// register-blocked kernel's rate and in parallel. ev.z holds the targets yc
// in its column D, so for a chunk of rows Zc (gramRows rows, with yc
// beside it) one product [Zc | yc]ᵀ-by-rows gives the chunk's ZᵀZ and Zᵀyc
// together: asm.AffineRows with x = (W·Zc)ᵀ (the weighted features of the
// chunk, feature-major, so that the chunk's rows are the reduction) and
// the panels of [Zc | yc], each entry one FMA chain over the chunk's rows
// from zero. Rows of the Gram matrix go in groups of asm.AffineWidth from
// their group's diagonal panel on, so the work is about the upper triangle.
// The chunks' products are added in order into their stripe's matrix, and
// the stripes (fixed by n) in order into A: the same bits for every
// GOMAXPROCS and, as the kernel's chains are fixed, on every path. The
// Cholesky factorisation rounds every product explicitly (FMAs).
func (ev *evaluator) ridge(a []float64, lambda float64) error {
	n, D, ldz := ev.n, ev.D, ev.D+1
	// Stripes of whole blocks (at least 8 per stripe: each stripe clears
	// and sums a D×D matrix, which costs as much as 8 blocks of rows at
	// small n), cut into chunks of gramRows rows.
	per := max(8, (ev.blocks+gramStripes-1)/gramStripes) // blocks per stripe
	stripes := (ev.blocks + per - 1) / per
	size := D * ldz // the upper triangle of ZᵀZ (row-major, stride D+1), Zᵀyc in column D
	if len(ev.gram) < stripes*size {
		ev.gram = make([]float64, stripes*size)
	}
	const W = asm.AffineWidth
	stripe := func(s int, sc *gramScratch) {
		g := ev.gram[s*size : (s+1)*size]
		clear(g)
		end := min(n, (s+1)*per*blockRows)
		for lo := s * per * blockRows; lo < end; lo += gramRows {
			m := min(gramRows, end-lo)
			sc.panels = sc.panels.Pack(ev.z[lo*ldz:], m, ldz, ldz)
			var wt []float64 // the multipliers w_i·z_ik: ZᵀWZ, ZᵀW·yc
			if ev.wt != nil {
				wt = ev.wt[lo : lo+m]
			}
			transpose(sc.zt[:D*m], ev.z[lo*ldz:], ldz, m, D, wt)
			for k0 := 0; k0 < D; k0 += W {
				rows := min(W, D-k0)
				asm.AffineRows(sc.t, ldz, sc.zt[k0*m:], m, rows, sc.panels, sc.zero, k0)
				for r := 0; r < rows; r++ {
					k := k0 + r
					gr, tr := g[k*ldz+k:(k+1)*ldz], sc.t[r*ldz+k:(r+1)*ldz]
					for j, v := range tr {
						gr[j] += v
					}
				}
			}
		}
	}
	par.Each(int(ev.threads), stripes, n*D*D < parallelWork, func() *gramScratch { return ev.gramPool.Get().(*gramScratch) },
		func(sc *gramScratch) { ev.gramPool.Put(sc) }, stripe)
	// A = Σ_s (stripe s) + nλI, upper triangle row-major; b = Zᵀyc.
	if len(ev.chol) != D*D {
		ev.chol = make([]float64, D*D)
	}
	A := ev.chol
	clear(A)
	clear(a)
	reg := float64(lambda * ev.wsum)
	for s := 0; s < stripes; s++ {
		g := ev.gram[s*size : (s+1)*size]
		for k := 0; k < D; k++ {
			row := A[k*D : (k+1)*D]
			for j, v := range g[k*ldz+k : k*ldz+D] {
				row[k+j] += v
			}
			a[k] += g[k*ldz+D]
		}
	}
	for j := 0; j < D; j++ {
		A[j*D+j] += reg
	}
	if !cholesky(A, D) {
		return errNotPD
	}
	cholSolve(A, D, a)
	for _, v := range a {
		if !isFinite(v) {
			return errNotPD
		}
	}
	return nil
}

// transpose writes the first D columns of the m rows of z (row stride
// ldz) into zt feature-major (zt[k·m + r] = z[r·ldz + k]), each multiplied
// by the weight wt[r] of its row (rounded) if wt is not nil. Rows go eight
// at a time, so that every column writes eight neighbouring values.
func transpose(zt, z []float64, ldz, m, D int, wt []float64) {
	r := 0
	for ; r+8 <= m; r += 8 {
		z0, z1, z2, z3 := z[r*ldz:r*ldz+D], z[(r+1)*ldz:(r+1)*ldz+D], z[(r+2)*ldz:(r+2)*ldz+D], z[(r+3)*ldz:(r+3)*ldz+D]
		z4, z5, z6, z7 := z[(r+4)*ldz:(r+4)*ldz+D], z[(r+5)*ldz:(r+5)*ldz+D], z[(r+6)*ldz:(r+6)*ldz+D], z[(r+7)*ldz:(r+7)*ldz+D]
		if wt != nil {
			w := wt[r : r+8]
			for k := range z0 {
				o := zt[k*m+r : k*m+r+8]
				o[0], o[1], o[2], o[3] = float64(w[0]*z0[k]), float64(w[1]*z1[k]), float64(w[2]*z2[k]), float64(w[3]*z3[k])
				o[4], o[5], o[6], o[7] = float64(w[4]*z4[k]), float64(w[5]*z5[k]), float64(w[6]*z6[k]), float64(w[7]*z7[k])
			}
			continue
		}
		for k := range z0 {
			o := zt[k*m+r : k*m+r+8]
			o[0], o[1], o[2], o[3] = z0[k], z1[k], z2[k], z3[k]
			o[4], o[5], o[6], o[7] = z4[k], z5[k], z6[k], z7[k]
		}
	}
	for ; r < m; r++ {
		zr := z[r*ldz : r*ldz+D]
		for k, v := range zr {
			if wt != nil {
				v = float64(wt[r] * v)
			}
			zt[k*m+r] = v
		}
	}
}

// gramRows is the number of rows of one chunk of the Gram matrix: the
// length of the kernel's FMA chains before their sums are added into the
// stripe's matrix. The chunk's panels (gramRows × (D+1) values, 200 KB at
// D = 100) stay in the L2 cache while the rows of the Gram matrix sweep
// them.
const gramRows = 256

// gramScratch is one goroutine's working space for ridge: the packed
// chunk, its weighted transpose, the rows of one group of the Gram matrix
// and zero phases.
type gramScratch struct {
	panels      *asm.AffinePanels
	zt, t, zero []float64
}

func newGramScratch(D int) *gramScratch {
	return &gramScratch{zt: make([]float64, D*gramRows), t: make([]float64, asm.AffineWidth*(D+1)), zero: make([]float64, D+1)}
}

// cholesky overwrites the upper triangle of the symmetric D×D matrix A
// (row-major; the strict lower triangle is not read) with U, A = UᵀU, row
// by row of U (column by column of L = Uᵀ). It reports false when a pivot
// is not positive (or is NaN).
//
// Row j of U needs s_i = A_ji − Σ_{m<j} U_mj·U_mi for every i ≥ j: a
// vector (column j of the rows above) times the matrix of those rows, which
// is asm.DotStats's shape, so the D³/6 multiply-adds of the factorisation
// run in vector registers (the scalar, row-paired Cholesky–Banachiewicz
// loop it replaces took 20 % of a search's CPU at D = 300). DotStats takes
// the rows in two halves of equal length, one FMA chain per column (first
// half, then second half); for odd j the last row above is one more FMA
// per column, in Go. The order is fixed, so U has the same bits on every
// path of package asm.
func cholesky(A []float64, D int) bool {
	buf := make([]float64, 3*D)
	v, h, zero := buf[:D], buf[D:2*D], buf[2*D:]
	var acc [8]float64
	for j := 0; j < D; j++ {
		n, half := D-j, j/2
		hj := h[:n]
		for m := 0; m < 2*half; m++ {
			v[m] = A[m*D+j]
		}
		if half > 0 {
			asm.DotStats(hj, zero[:n], A[j:], v[:half], A[half*D+j:], v[half:2*half], D, &acc)
		} else {
			clear(hj)
		}
		if j%2 == 1 {
			m := j - 1
			um, row := A[m*D+j], A[m*D+j:(m+1)*D]
			for i, u := range row {
				hj[i] = math.FMA(um, u, hj[i])
			}
		}
		s := A[j*D+j] - hj[0]
		if !(s > 0) {
			return false
		}
		piv := math.Sqrt(s)
		A[j*D+j] = piv
		row := A[j*D+j+1 : (j+1)*D]
		for i, u := range row {
			row[i] = (u - hj[i+1]) / piv
		}
	}
	return true
}

// cholSolve overwrites x with A⁻¹x given the factor U of cholesky: Uᵀz = x
// forward (row sweeps of U), then Uw = z backward (dot products of rows).
func cholSolve(U []float64, D int, x []float64) {
	for i := 0; i < D; i++ {
		x[i] /= U[i*D+i]
		xi := x[i]
		rest := x[i+1:]
		for k, u := range U[i*D+i+1 : (i+1)*D] {
			rest[k] = math.FMA(-u, xi, rest[k])
		}
	}
	for i := D - 1; i >= 0; i-- {
		x[i] = (x[i] - dot4(U[i*D+i+1:(i+1)*D], x[i+1:])) / U[i*D+i]
	}
}

// dot4 is Σ a_i·b_i with four FMA accumulators (element i feeds
// accumulator i mod 4), combined as (s0 + s1) + (s2 + s3): a fixed order,
// so the same bits everywhere, and four independent chains instead of one.
func dot4(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 = math.FMA(a[i], b[i], s0)
		s1 = math.FMA(a[i+1], b[i+1], s1)
		s2 = math.FMA(a[i+2], b[i+2], s2)
		s3 = math.FMA(a[i+3], b[i+3], s3)
	}
	for ; i < len(a); i++ {
		s0 = math.FMA(a[i], b[i], s0)
	}
	return (s0 + s1) + (s2 + s3)
}

// dot4x2 is dot4(a, b0) and dot4(a, b1), the same bits, with the two rows'
// eight FMA chains interleaved so that they overlap (one dot4 waits on
// the latency of its four chains).
func dot4x2(a, b0, b1 []float64) (float64, float64) {
	b0, b1 = b0[:len(a)], b1[:len(a)]
	var s0, s1, s2, s3, t0, t1, t2, t3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		a0, a1, a2, a3 := a[i], a[i+1], a[i+2], a[i+3]
		s0 = math.FMA(a0, b0[i], s0)
		t0 = math.FMA(a0, b1[i], t0)
		s1 = math.FMA(a1, b0[i+1], s1)
		t1 = math.FMA(a1, b1[i+1], t1)
		s2 = math.FMA(a2, b0[i+2], s2)
		t2 = math.FMA(a2, b1[i+2], t2)
		s3 = math.FMA(a3, b0[i+3], s3)
		t3 = math.FMA(a3, b1[i+3], t3)
	}
	for ; i < len(a); i++ {
		s0 = math.FMA(a[i], b0[i], s0)
		t0 = math.FMA(a[i], b1[i], t0)
	}
	return (s0 + s1) + (s2 + s3), (t0 + t1) + (t2 + t3)
}
