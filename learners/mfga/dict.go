package mfga

import (
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/par"
	"github.com/rfkit/rfkit/trig"
)

// feature is one dictionary entry, decoded from its index.
type feature struct {
	kind uint8 // kindConst, kindFirst, kindSquare, kindCross, kindLinear
	k, l int32
}

const (
	kindConst  = iota // e
	kindFirst         // e·x_k/σ
	kindSquare        // e·x_k²/(σ²√2)
	kindCross         // e·x_k·x_l/σ²
	kindLinear        // x_k
)

// decode returns the dictionary entry j of the map with d inputs and the
// given degree; ok is false when j is out of range.
func decode(j, d, degree int) (f feature, ok bool) {
	switch {
	case j < 0:
		return f, false
	case j == 0:
		return feature{kind: kindConst}, true
	case j <= d:
		return feature{kind: kindFirst, k: int32(j - 1)}, true
	}
	j -= 1 + d
	if degree == 2 {
		for k := 0; k < d; k++ {
			if j < d-k {
				if j == 0 {
					return feature{kind: kindSquare, k: int32(k), l: int32(k)}, true
				}
				return feature{kind: kindCross, k: int32(k), l: int32(k + j)}, true
			}
			j -= d - k
		}
	}
	if j < d {
		return feature{kind: kindLinear, k: int32(j)}, true
	}
	return f, false
}

// expArg is −‖x‖²/2σ² (inv = 1/σ), the argument of the Gaussian factor
// of the dictionary, with the squares summed by FMA in order.
func expArg(x []float64, inv float64) float64 {
	var n2 float64
	for _, v := range x {
		n2 = math.FMA(v, v, n2)
	}
	return -0.5 * n2 * inv * inv
}

// value evaluates feature f at the standardised x with e = e^{−‖x‖²/2σ²}.
// The products are those of dictRow, in the same order.
func (f feature) value(x []float64, e, inv float64) float64 {
	switch f.kind {
	case kindConst:
		return e
	case kindFirst:
		return e * x[f.k] * inv
	case kindSquare:
		c := e * inv * inv
		return c * x[f.k] * x[f.k] / math.Sqrt2
	case kindCross:
		c := e * inv * inv
		return c * x[f.k] * x[f.l]
	}
	return x[f.k]
}

// dictRow writes the whole dictionary at x into dst (len M₀), in index
// order, for e the Gaussian factor e^{−‖x‖²/2σ²} and inv = 1/σ: the
// Taylor features φ_α(x) = e·x^α/(σ^{|α|}·√(α!)), |α| ≤ degree, in graded
// order (α = 0; the d first-degree terms; for degree 2 the pairs k ≤ l),
// then the d linear features x_k. dst[j] == decode(j).value(x, e, inv)
// bit for bit.
func dictRow(dst, x []float64, e, inv float64, degree int) {
	dst[0] = e
	o := 1
	for _, v := range x {
		dst[o] = e * v * inv
		o++
	}
	if degree == 2 {
		c := e * inv * inv
		for k, vk := range x {
			dst[o] = c * vk * vk / math.Sqrt2 // α! = 2
			o++
			for _, vl := range x[k+1:] {
				dst[o] = c * vk * vl
				o++
			}
		}
	}
	copy(dst[o:], x)
}

// expWeights returns e_i = e^{−‖x_i‖²/2σ²} for the n rows of xs (n×d).
func expWeights(xs []float64, n, d int, inv float64) []float64 {
	e := make([]float64, n)
	for i := range e {
		e[i] = expArg(xs[i*d:(i+1)*d], inv)
	}
	trig.Exp(e, e)
	return e
}

// forEach runs f(0), …, f(tasks−1) on up to min(threads, GOMAXPROCS)
// goroutines (par.Each; Config.Threads, 0 = GOMAXPROCS). Each task must
// write only its own results, so the outcome does not depend on the number
// of goroutines.
func forEach(threads learners.Threads, tasks int, f func(t int)) {
	par.Each(int(threads), tasks, false, par.None, nil, func(t int, _ struct{}) { f(t) })
}

// blocks splits n rows into at most 64 fixed blocks of at least 512 rows
// (a function of n only); it returns the block size and count.
func blocks(n int) (size, count int) {
	size = max(512, (n+63)/64)
	return size, (n + size - 1) / size
}

// Neighbours and query rows of the σ rule of thumb.
const (
	sigmaQueries = 256
)

// sigmaRule is the mean distance to the k-th nearest neighbour (k =
// min(50, n−1)) over min(n, 256) query rows drawn with seed, neighbours
// searched among all rows of xs (n×d, the query itself excluded), on up
// to threads goroutines.
func sigmaRule(xs []float64, n, d int, seed uint64, threads learners.Threads) float64 {
	k := min(defaultNeighbour, n-1)
	if k < 1 {
		return math.Sqrt(float64(2 * d))
	}
	q := min(n, sigmaQueries)
	perm := rand.New(rand.NewPCG(seed, 0x6d666761)).Perm(n)[:q] // "mfga"
	kth := make([]float64, q)
	forEach(threads, q, func(t int) {
		i := perm[t]
		kth[t] = math.Sqrt(kthSmallest(xs, n, d, i, k))
	})
	var sum float64
	for _, v := range kth {
		sum += v
	}
	if s := sum / float64(q); s > 0 && !math.IsInf(s, 0) {
		return s
	}
	return math.Sqrt(float64(2 * d))
}

// kthSmallest returns the k-th smallest squared distance from row i of xs
// (n×d) to the other rows, each distance summed in column order. It keeps
// the k smallest in a max-heap and abandons a row once its partial sum
// exceeds the heap's top: the sum of non-negative terms never decreases,
// so the abandoned rows could not enter, and the value is the one a full
// sort gives, bit for bit.
func kthSmallest(xs []float64, n, d, i, k int) float64 {
	xi := xs[i*d : (i+1)*d]
	h := make([]float64, 0, k)
	for j := 0; j < n; j++ {
		if j == i {
			continue
		}
		row := xs[j*d : (j+1)*d]
		var s float64
		if len(h) < k {
			for c, v := range row {
				u := v - xi[c]
				s += float64(u * u)
			}
			h = append(h, s)
			for c := len(h) - 1; c > 0; { // sift up
				p := (c - 1) / 2
				if h[p] >= h[c] {
					break
				}
				h[p], h[c] = h[c], h[p]
				c = p
			}
			continue
		}
		top := h[0]
		abandoned := false
		for c0 := 0; c0 < d; c0 += 16 {
			for c := c0; c < min(d, c0+16); c++ {
				u := row[c] - xi[c]
				s += float64(u * u)
			}
			if s > top {
				abandoned = true
				break
			}
		}
		if abandoned || !(s < top) {
			continue
		}
		h[0] = s
		for c := 0; ; { // sift down
			l, m := 2*c+1, c
			if l < k && h[l] > h[m] {
				m = l
			}
			if l+1 < k && h[l+1] > h[m] {
				m = l + 1
			}
			if m == c {
				break
			}
			h[m], h[c] = h[c], h[m]
			c = m
		}
	}
	return h[0]
}
