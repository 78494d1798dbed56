// Package vec holds the small scalar loops several learners share, each
// with one documented rounding rule so that every learner gets the same
// bits from it on every architecture.
package vec

import "math"

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
