// Package onlinestream builds the row streams the online experiments
// (bench/cmd/online, bench/cmd/rrf-paper) feed their learners: one random
// order per seed, inputs standardised on a prefix only, as an online
// learner that tunes on the first part of its stream would.
package onlinestream

import (
	"math"
	"math/rand/v2"
)

// Stream is a data set's rows in stream order: X is N×D row-major, Y the
// labels or targets.
type Stream struct {
	X, Y []float64
	N, D int
}

// New returns the n rows of X (n×d, row-major) and y in the order of a
// permutation drawn from PCG(seed, tag) (each command has its own tag, so
// its streams stay as they were). Each input is standardised with the
// mean and population standard deviation of the first prefix stream rows
// (a deviation that is 0 or NaN counts as 1); with scaleY the targets are
// standardised the same way. X and y are not changed.
func New(X, y []float64, n, d int, seed, tag uint64, prefix int, scaleY bool) *Stream {
	perm := rand.New(rand.NewPCG(seed, tag)).Perm(n)
	s := &Stream{X: make([]float64, n*d), Y: make([]float64, n), N: n, D: d}
	for i, p := range perm {
		copy(s.X[i*d:(i+1)*d], X[p*d:(p+1)*d])
		s.Y[i] = y[p]
	}
	m := min(prefix, n)
	for j := 0; j < d; j++ {
		mu, sd := prefixStats(func(i int) float64 { return s.X[i*d+j] }, m)
		for i := 0; i < n; i++ {
			s.X[i*d+j] = (s.X[i*d+j] - mu) / sd
		}
	}
	if scaleY {
		mu, sd := prefixStats(func(i int) float64 { return s.Y[i] }, m)
		for i := range s.Y {
			s.Y[i] = (s.Y[i] - mu) / sd
		}
	}
	return s
}

// prefixStats is the mean and the population standard deviation (1 when
// it is not positive) of at(0), …, at(m−1), summed in index order.
func prefixStats(at func(int) float64, m int) (mean, sd float64) {
	for i := 0; i < m; i++ {
		mean += at(i)
	}
	mean /= float64(m)
	for i := 0; i < m; i++ {
		u := at(i) - mean
		sd += u * u
	}
	sd = math.Sqrt(sd / float64(m))
	if !(sd > 0) {
		sd = 1
	}
	return mean, sd
}
