package srff

import (
	"errors"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rfkit/rfkit/asm"
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
	workers := min(runtime.GOMAXPROCS(0), stripes)
	if workers <= 1 || n*D*D < parallelWork {
		sc := newGramScratch(D, Dp)
		for s := 0; s < stripes; s++ {
			stripe(s, sc)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sc := newGramScratch(D, Dp)
				for {
					s := int(next.Add(1) - 1)
					if s >= stripes {
						return
					}
					stripe(s, sc)
				}
			}()
		}
		wg.Wait()
	}
	// A = Σ_s (stripe s) + nλI, lower triangle row-major; b = Zᵀyc.
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
			for j := k; j < D; j++ {
				A[j*D+k] += g[k*D+j]
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

// cholesky overwrites the lower triangle of the symmetric D×D matrix A
// (row-major) with L, A = L·Lᵀ, by the row-oriented (Cholesky–Banachiewicz)
// algorithm. It reports false when a pivot is not positive (or is NaN).
//
// Rows go in pairs: the dot products of rows i and i+1 with row j < i
// share the loads of row j and run as two independent sets of chains
// (dot4x2), each summed in the order of dot4, so L has the bits of the
// row-by-row loop.
func cholesky(A []float64, D int) bool {
	i := 0
	for ; i+1 < D; i += 2 {
		li, lk := A[i*D:i*D+i+1], A[(i+1)*D:(i+1)*D+i+2]
		for j := 0; j < i; j++ {
			di, dk := dot4x2(li[:j], lk[:j], A[j*D:j*D+j])
			piv := A[j*D+j]
			li[j] = (li[j] - di) / piv
			lk[j] = (lk[j] - dk) / piv
		}
		s := li[i] - dot4(li[:i], li[:i])
		if !(s > 0) {
			return false
		}
		li[i] = math.Sqrt(s)
		lk[i] = (lk[i] - dot4(lk[:i], li[:i])) / li[i]
		s = lk[i+1] - dot4(lk[:i+1], lk[:i+1])
		if !(s > 0) {
			return false
		}
		lk[i+1] = math.Sqrt(s)
	}
	for ; i < D; i++ {
		li := A[i*D : i*D+i+1]
		for j := 0; j < i; j++ {
			li[j] = (li[j] - dot4(li[:j], A[j*D:j*D+j])) / A[j*D+j]
		}
		s := li[i] - dot4(li[:i], li[:i])
		if !(s > 0) {
			return false
		}
		li[i] = math.Sqrt(s)
	}
	return true
}

// cholSolve overwrites x with A⁻¹x given the factor L of cholesky: L z = x
// forward, then Lᵀ w = z backward (column sweeps of the row-major L).
func cholSolve(L []float64, D int, x []float64) {
	for i := 0; i < D; i++ {
		x[i] = (x[i] - dot4(L[i*D:i*D+i], x[:i])) / L[i*D+i]
	}
	for i := D - 1; i >= 0; i-- {
		x[i] /= L[i*D+i]
		xi := x[i]
		for k, v := range L[i*D : i*D+i] {
			x[k] = math.FMA(-v, xi, x[k])
		}
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

// dot4x2 returns dot4(a, c) and dot4(b, c) (len(b) = len(a)), with the same
// chains and the same final additions.
func dot4x2(a, b, c []float64) (float64, float64) {
	b, c = b[:len(a)], c[:len(a)]
	var s0, s1, s2, s3, t0, t1, t2, t3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 = math.FMA(a[i], c[i], s0)
		s1 = math.FMA(a[i+1], c[i+1], s1)
		s2 = math.FMA(a[i+2], c[i+2], s2)
		s3 = math.FMA(a[i+3], c[i+3], s3)
		t0 = math.FMA(b[i], c[i], t0)
		t1 = math.FMA(b[i+1], c[i+1], t1)
		t2 = math.FMA(b[i+2], c[i+2], t2)
		t3 = math.FMA(b[i+3], c[i+3], t3)
	}
	for ; i < len(a); i++ {
		s0 = math.FMA(a[i], c[i], s0)
		t0 = math.FMA(b[i], c[i], t0)
	}
	return (s0 + s1) + (s2 + s3), (t0 + t1) + (t2 + t3)
}
