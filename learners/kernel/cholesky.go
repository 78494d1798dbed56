package kernel

import (
	"context"
	"errors"
	"math"

	"github.com/rfkit/rfkit/learners/internal/par"
)

// Block sizes of cholesky. They decide speed only, never results: every
// entry is one chain of subtractions in index order whatever the blocking.
const (
	cholBlock = 64  // columns per block column
	cholChunk = 256 // k per pass of the update (the block column's rows stay in cache)
	cholRows  = 64  // rows per unit of parallel work
	// cholParallel is the update work (multiply–adds) below which a block
	// column's update stays on the calling goroutine.
	cholParallel = 1 << 20
)

// errNotPD is cholesky's error.
var errNotPD = errors.New("the regularised kernel matrix is not numerically positive definite")

// cholesky factors the lower triangle of the m×m row-major a in place
// into L (a = L·Lᵀ). Entry (i, j ≤ i) is the Cholesky–Banachiewicz chain
//
//	s = a_ij − l_i0·l_j0 − l_i1·l_j1 − … − l_i,j−1·l_j,j−1
//
// with the subtractions in index order and each product rounded on its own
// (never fused into an FMA), then l_ij = s / l_jj (j < i) or √s (j = i):
// the same bits as the textbook row-by-row loop, on every architecture and
// GOMAXPROCS. The work is organised for speed only: left-looking over
// block columns of cholBlock columns, the bulk (the products with k before
// the block column) in cache-sized k chunks by a register-blocked 4×2
// kernel that advances eight independent chains, on up to
// par.Workers(threads, …) goroutines (threads ≤ 0: GOMAXPROCS) taking fixed
// row ranges. Cost m³/6 multiply–adds.
//
// It returns errNotPD when a pivot s is not positive or is NaN (a NaN
// entry reaches a later pivot). The strict upper triangle of the diagonal
// blocks is overwritten (scratch); the rest of the upper triangle is not
// touched. It checks ctx before each block column and returns its error
// (the factorisation of m = 10000 takes seconds).
func cholesky(ctx context.Context, a []float64, m, threads int) error {
	a = a[:m*m]
	for j0 := 0; j0 < m; j0 += cholBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		j1 := min(j0+cholBlock, m)
		// The products with k < j0 of every entry of the block column.
		if j0 > 0 {
			rows := m - j0
			if par.Workers(threads, 2) > 1 && rows > cholRows && rows*(j1-j0)*j0 >= cholParallel {
				chunks := (rows + cholRows - 1) / cholRows
				par.Each(threads, chunks, false, par.None, nil, func(c int, _ struct{}) {
					lo := j0 + c*cholRows
					cholUpdate(a, m, lo, min(m, lo+cholRows), j0, j1)
				})
			} else {
				cholUpdate(a, m, j0, m, j0, j1)
			}
		}
		// The rest of each chain (k in [j0, j)): the diagonal block row by
		// row, then the rows below it.
		for i := j0; i < j1; i++ {
			ri := a[i*m : i*m+i+1]
			for j := j0; j <= i; j++ {
				rj := a[j*m : j*m+j+1]
				s := ri[j]
				for k := j0; k < j; k++ {
					s -= float64(ri[k] * rj[k])
				}
				if j < i {
					ri[j] = s / rj[j]
					continue
				}
				if !(s > 0) {
					return errNotPD
				}
				ri[i] = math.Sqrt(s)
			}
		}
		cholPanel(a, m, j0, j1)
	}
	return nil
}

// cholUpdate subtracts from a_ij, for rows i in [lo, hi) and columns j in
// [j0, min(j1, i+1)), the products l_ik·l_jk for k in [0, j0), in k order.
// A group of four rows in the diagonal block may also update entries just
// above the diagonal (scratch).
func cholUpdate(a []float64, m, lo, hi, j0, j1 int) {
	var s [8]float64
	for k0 := 0; k0 < j0; k0 += cholChunk {
		k1 := min(k0+cholChunk, j0)
		i := lo
		for ; i+4 <= hi; i += 4 {
			r0, r1, r2, r3 := a[i*m+k0:i*m+k1], a[(i+1)*m+k0:(i+1)*m+k1], a[(i+2)*m+k0:(i+2)*m+k1], a[(i+3)*m+k0:(i+3)*m+k1]
			jh := min(j1, i+4)
			j := j0
			for ; j+2 <= jh; j += 2 {
				c0, c1 := a[j*m+k0:j*m+k1], a[(j+1)*m+k0:(j+1)*m+k1]
				s[0], s[1] = a[i*m+j], a[i*m+j+1]
				s[2], s[3] = a[(i+1)*m+j], a[(i+1)*m+j+1]
				s[4], s[5] = a[(i+2)*m+j], a[(i+2)*m+j+1]
				s[6], s[7] = a[(i+3)*m+j], a[(i+3)*m+j+1]
				sub42(&s, r0, r1, r2, r3, c0, c1)
				a[i*m+j], a[i*m+j+1] = s[0], s[1]
				a[(i+1)*m+j], a[(i+1)*m+j+1] = s[2], s[3]
				a[(i+2)*m+j], a[(i+2)*m+j+1] = s[4], s[5]
				a[(i+3)*m+j], a[(i+3)*m+j+1] = s[6], s[7]
			}
			for ; j < jh; j++ {
				c := a[j*m+k0 : j*m+k1]
				a[i*m+j] = subDot(a[i*m+j], r0, c)
				a[(i+1)*m+j] = subDot(a[(i+1)*m+j], r1, c)
				a[(i+2)*m+j] = subDot(a[(i+2)*m+j], r2, c)
				a[(i+3)*m+j] = subDot(a[(i+3)*m+j], r3, c)
			}
		}
		for ; i < hi; i++ {
			r := a[i*m+k0 : i*m+k1]
			for j := j0; j < min(j1, i+1); j++ {
				a[i*m+j] = subDot(a[i*m+j], r, a[j*m+k0:j*m+k1])
			}
		}
	}
}

// sub42 advances the eight chains s[2r+c] −= r_r[k]·c_c[k] over k in
// order (r the four rows, c the two columns).
func sub42(s *[8]float64, r0, r1, r2, r3, c0, c1 []float64) {
	n := len(c0)
	r0, r1, r2, r3, c1 = r0[:n], r1[:n], r2[:n], r3[:n], c1[:n]
	s00, s01, s10, s11 := s[0], s[1], s[2], s[3]
	s20, s21, s30, s31 := s[4], s[5], s[6], s[7]
	for k, x := range c0 {
		y := c1[k]
		v := r0[k]
		s00 -= float64(v * x)
		s01 -= float64(v * y)
		v = r1[k]
		s10 -= float64(v * x)
		s11 -= float64(v * y)
		v = r2[k]
		s20 -= float64(v * x)
		s21 -= float64(v * y)
		v = r3[k]
		s30 -= float64(v * x)
		s31 -= float64(v * y)
	}
	s[0], s[1], s[2], s[3] = s00, s01, s10, s11
	s[4], s[5], s[6], s[7] = s20, s21, s30, s31
}

// subDot is s − Σ r_k·c_k, subtracting in k order.
func subDot(s float64, r, c []float64) float64 {
	c = c[:len(r)]
	for k, v := range r {
		s -= float64(v * c[k])
	}
	return s
}

// cholPanel finishes the rows i ≥ j1 of the block column [j0, j1) once its
// diagonal block is factored: for j in order, s = a_ij − Σ_{k∈[j0,j)}
// l_ik·l_jk, l_ij = s/l_jj. Four rows advance side by side (independent
// chains).
func cholPanel(a []float64, m, j0, j1 int) {
	i := j1
	for ; i+4 <= m; i += 4 {
		r0, r1, r2, r3 := a[i*m:i*m+j1], a[(i+1)*m:(i+1)*m+j1], a[(i+2)*m:(i+2)*m+j1], a[(i+3)*m:(i+3)*m+j1]
		for j := j0; j < j1; j++ {
			rj := a[j*m : j*m+j+1]
			s0, s1, s2, s3 := r0[j], r1[j], r2[j], r3[j]
			for k := j0; k < j; k++ {
				x := rj[k]
				s0 -= float64(r0[k] * x)
				s1 -= float64(r1[k] * x)
				s2 -= float64(r2[k] * x)
				s3 -= float64(r3[k] * x)
			}
			p := rj[j]
			r0[j], r1[j], r2[j], r3[j] = s0/p, s1/p, s2/p, s3/p
		}
	}
	for ; i < m; i++ {
		ri := a[i*m : i*m+j1]
		for j := j0; j < j1; j++ {
			rj := a[j*m : j*m+j+1]
			ri[j] = subDot(ri[j], ri[j0:j], rj[j0:j]) / rj[j]
		}
	}
}
