package exploss

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/asm"
)

// Weights is the boosting update after a round with step alpha and weak
// learner outputs h: for every sample i,
//
//	H[i] += alpha·h[i]   (one FMA)
//	w_i   = exp(clamp(−y[i]·H[i], −700, 700))
//	yt[i] = y[i]·w_i
//
// and it returns Σ w_i. With alpha = 0 it only computes the weights of H.
func Weights(yt, H, y, h []float64, alpha float64) (sumW float64, err error) {
	return weights(0, yt, H, y, h, alpha)
}

// Weights is the package function Weights over the N samples of x, on up to
// x.Threads() goroutines: the slices must have length x.N.
func (x *Data) Weights(yt, H, y, h []float64, alpha float64) (sumW float64, err error) {
	if len(y) != x.N {
		return 0, fmt.Errorf("%w: Weights with %d labels for %d samples", ErrShape, len(y), x.N)
	}
	return weights(x.threads, yt, H, y, h, alpha)
}

func weights(threads int, yt, H, y, h []float64, alpha float64) (sumW float64, err error) {
	n := len(y)
	if n == 0 || len(yt) != n || len(H) != n || len(h) != n {
		return 0, fmt.Errorf("%w: Weights with yt %d, H %d, y %d, h %d", ErrShape, len(yt), len(H), len(y), len(h))
	}
	part := make([]float64, numChunks(n))
	forChunks(threads, n, func(c, lo, hi int) {
		var acc [8]float64
		asm.Weights(yt[lo:hi], H[lo:hi], y[lo:hi], h[lo:hi], alpha, &acc)
		part[c] = asm.SumLanes(&acc)
	})
	for _, p := range part {
		sumW += p
	}
	return sumW, nil
}

// WeightedCorrelation returns Σ yt[i]·h[i] where h = Σ_k u[k]·C[k,i] +
// Σ_k v[k]·S[k,i] is also written to h (C and S are K×n row-major, K =
// len(u)). For GBRFF2, C and S are the cos and sin of ω·x (K = 1, u = cos b,
// v = sin b), so h = cos(ω·x − b); for GBRFF1 they are cos and sin of P and
// u, v carry the weights q.
func WeightedCorrelation(h, yt, C, S, u, v []float64) (float64, error) {
	return weightedCorrelation(0, h, yt, C, S, u, v)
}

// WeightedCorrelation is the package function WeightedCorrelation over the
// N samples of x (len(h) = x.N), on up to x.Threads() goroutines.
func (x *Data) WeightedCorrelation(h, yt, C, S, u, v []float64) (float64, error) {
	if len(h) != x.N {
		return 0, fmt.Errorf("%w: WeightedCorrelation with %d outputs for %d samples", ErrShape, len(h), x.N)
	}
	return weightedCorrelation(x.threads, h, yt, C, S, u, v)
}

func weightedCorrelation(threads int, h, yt, C, S, u, v []float64) (float64, error) {
	n, K := len(h), len(u)
	if n == 0 || len(yt) != n || len(v) != K || len(C) != K*n || len(S) != K*n {
		return 0, fmt.Errorf("%w: WeightedCorrelation with h %d, yt %d, C %d, S %d, u %d, v %d", ErrShape, n, len(yt), len(C), len(S), K, len(v))
	}
	part := make([]float64, numChunks(n))
	forChunks(threads, n, func(c, lo, hi int) {
		var acc [8]float64
		asm.DotStats(h[lo:hi], yt[lo:hi], C[lo:], u, S[lo:], v, n, &acc)
		part[c] = asm.SumLanes(&acc)
	})
	var s float64
	for _, p := range part {
		s += p
	}
	return s, nil
}
