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
// Gram matrix, the a-step's main cost (n·D²/2 multiply-adds), runs in
// vector registers and in parallel: for each block of rows and each feature
// k, one asm.DotStats forms Σ_i z_ik·z_ij for all j ≥ k. The Cholesky
// factorisation rounds every product explicitly (FMAs), so a has the same
// bits on every path.
func (ev *evaluator) ridge(a []float64, lambda float64) error {
	n, D, B := ev.n, ev.D, blockRows
	// At least 8 blocks per stripe: each stripe clears and sums a D×D
	// matrix, which costs as much as 8 blocks of rows at small n.
	per := max(8, (ev.blocks+gramStripes-1)/gramStripes) // blocks per stripe
	stripes := (ev.blocks + per - 1) / per
	size := D*D + D // upper triangle of ZᵀZ (row-major D×D), then Zᵀyc
	if len(ev.gram) < stripes*size {
		ev.gram = make([]float64, stripes*size)
	}
	// Every block is copied into a B×Dp buffer whose padding columns are
	// zero: then each DotStats call covers whole groups of eight columns
	// (from the group of the diagonal, k &^ 7, to Dp), all in assembly,
	// where D − k columns left a partial group to the scalar twin in most
	// calls. The extra columns left of the diagonal and in the padding are
	// dropped; every kept entry is the same chain of FMAs as before.
	Dp := ev.Dp
	zero := make([]float64, Dp)
	stripe := func(s int, sc *gramScratch) {
		g := ev.gram[s*size : (s+1)*size]
		clear(g)
		rhs := g[D*D:]
		half := B / 2
		zb, yb := sc.zb, sc.yb
		for blk := s * per; blk < min(ev.blocks, (s+1)*per); blk++ {
			lo, hi := blk*B, min(n, (blk+1)*B)
			clear(zb)
			clear(yb)
			for r := 0; r < hi-lo; r++ {
				copy(zb[r*Dp:r*Dp+D], ev.z[(lo+r)*D:(lo+r+1)*D])
			}
			copy(yb, ev.yc[lo:hi])
			for r := 0; r < B; r++ {
				for k, v := range zb[r*Dp : r*Dp+D] {
					sc.zt[k*B+r] = v
				}
			}
			if ev.wt != nil { // the multipliers w_i·z_ik and w_i·yc_i: ZᵀWZ, ZᵀW·yc
				for r, wr := range ev.wt[lo:hi] {
					for k := 0; k < D; k++ {
						sc.zt[k*B+r] = float64(wr * sc.zt[k*B+r])
					}
					yb[r] = float64(wr * yb[r])
				}
			}
			for k := 0; k < D; k++ {
				col := sc.zt[k*B : (k+1)*B]
				j0 := k &^ 7
				h := sc.h[:Dp-j0]
				asm.DotStats(h, zero, zb[j0:], col[:half], zb[half*Dp+j0:], col[half:], Dp, &sc.acc)
				row := g[k*D+k : (k+1)*D]
				for j, v := range h[k-j0 : D-j0] {
					row[j] += v
				}
			}
			asm.DotStats(sc.h, zero, zb, yb[:half], zb[half*Dp:], yb[half:B], Dp, &sc.acc)
			for j, v := range sc.h[:D] {
				rhs[j] += v
			}
		}
	}
	par.Each(stripes, n*D*D < parallelWork, func() *gramScratch { return newGramScratch(D, Dp) }, nil, stripe)
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
			for j, v := range g[k*D+k : (k+1)*D] {
				row[k+j] += v
			}
		}
		for j, v := range g[D*D:] {
			a[j] += v
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

// gramScratch is one goroutine's working space for ridge.
type gramScratch struct {
	zb, yb, zt, h []float64
	acc           [8]float64
}

func newGramScratch(D, Dp int) *gramScratch {
	B := blockRows
	return &gramScratch{zb: make([]float64, B*Dp), yb: make([]float64, B), zt: make([]float64, D*B), h: make([]float64, Dp)}
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
