// Package vec holds the small scalar loops several learners share, each
// with one documented rounding rule so that every learner gets the same
// bits from it on every architecture.
package vec

import (
	"math"

	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/trig"
)

// Dot2 is a·b + c·d (equal lengths) in eight chains (four per product,
// enough to hide the add latency) combined in a fixed order, each product
// rounded on its own: the same bits on every architecture.
//
// It avoids math.FMA: under GOAMD64=v1 (the default) every call tests the
// CPU and keeps a fallback call, which spills the accumulators to memory
// on each iteration; a rounded product and an add are as fast (only the
// add is on a chain) and cannot be fused either.
func Dot2(a, b, c, d []float64) float64 {
	n := len(a)
	b, c, d = b[:n], c[:n], d[:n]
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	k := 0
	for ; k+4 <= n; k += 4 {
		s0 += float64(a[k] * b[k])
		s1 += float64(a[k+1] * b[k+1])
		s2 += float64(a[k+2] * b[k+2])
		s3 += float64(a[k+3] * b[k+3])
		s4 += float64(c[k] * d[k])
		s5 += float64(c[k+1] * d[k+1])
		s6 += float64(c[k+2] * d[k+2])
		s7 += float64(c[k+3] * d[k+3])
	}
	for ; k < n; k++ {
		s0 += float64(a[k] * b[k])
		s4 += float64(c[k] * d[k])
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// Argmax is the index of the largest of f, the first on a tie, skipping
// index skip (−1 skips none); a NaN is never larger, so it is chosen only
// if it is the first candidate. It is −1 if f has no candidate.
func Argmax(f []float64, skip int) int {
	best := -1
	for c, v := range f {
		if c == skip {
			continue
		}
		if best < 0 || v > f[best] {
			best = c
		}
	}
	return best
}

// Margin is the largest of s minus the runner-up (0 when the largest is
// tied), in one pass from −Inf; a NaN is never larger, so it is passed
// over. It is what a multiclass model's Score returns.
func Margin(s []float64) float64 {
	best, second := math.Inf(-1), math.Inf(-1)
	for _, v := range s {
		switch {
		case v > best:
			best, second = v, best
		case v > second:
			second = v
		}
	}
	return best - second
}

// Softmax writes the softmax of s into p (len(p) == len(s); p may be s):
// e^{s_k − max}/Σ e^{s_j − max}, the exponentials internal/xmath's and the
// sum in index order (the same bits on every architecture).
func Softmax(p, s []float64) {
	m := s[Argmax(s, -1)]
	var sum float64
	for k, v := range s {
		p[k] = xmath.Exp(v - m)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
}

// Softmin writes q = softmax(−temp·ℓ) (len(q) == len(ell); q may be ell)
// through log-sum-exp: the exponents are shifted so that the largest is 0,
// so nothing overflows and the sum is ≥ 1. The products −temp·ℓ_k are
// rounded on their own, the exponentials are trig.Exp's and the sum runs
// in index order: the same bits on every path and architecture.
func Softmin(q, ell []float64, temp float64) {
	m := math.Inf(-1)
	for k, l := range ell {
		q[k] = float64(-temp * l)
		m = math.Max(m, q[k])
	}
	for k := range q {
		q[k] -= m
	}
	trig.Exp(q, q)
	var s float64
	for _, e := range q {
		s += e
	}
	for k := range q {
		q[k] /= s
	}
}

// Pick returns a new slice of the values v[idx], in the order of idx
// (nil for a nil v, such as absent row weights): the labels or weights of
// the rows learners.Rows copies.
func Pick(v []float64, idx []int) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(idx))
	for r, i := range idx {
		out[r] = v[i]
	}
	return out
}
