package solvers

import (
	"fmt"
	"math"
)

// RidgeBlockSums appends to dst the float64 sums of one block of rows of a
// centred ridge system, computed as NewRidgeSolver and Solve compute them:
// the lower triangle of XcᵀXc row by row (d(d+1)/2 values), then Xcᵀyc
// (d values). xct holds the block's centred rows transposed (d×m: row j is
// column j of the block's rows, less the column mean), yc the m centred
// targets (y − ȳ).
//
// A block is rows k·B to (k+1)·B − 1 of the data (B = exactsum.Block, the
// last block shorter). A distributed fit sums every block's values exactly
// (package internal/exactsum), in any order, and passes the rounded totals
// to SolveRidgeSums, which then returns Ridge's bits.
func RidgeBlockSums(dst, xct []float64, m, d int, yc []float64) []float64 {
	a := make([]float64, d*d)
	gram(a, xct, m, d, 0, m)
	tri := d * (d + 1) / 2
	dst = append(dst, make([]float64, tri+d)...)
	out := dst[len(dst)-tri-d:]
	packLower(out, a, d)
	for j := range d {
		out[tri+j] = dot(xct[j*m:(j+1)*m], yc[:m])
	}
	return dst
}

// SolveRidgeSums solves the ridge system of n rows with penalty λ from
// the exact sums of RidgeBlockSums over every block, rounded (sums: the
// lower triangle of XcᵀXc, then Xcᵀyc), the column means mean and the
// target mean ybar (each the exact sum of its blocks' float64 sums,
// rounded, divided by n). It returns the weights and bias that Ridge
// returns for the same rows. Errors: lengths that do not match d, a sum or
// mean that is not finite, λ < 0 or not finite, and a singular system (as
// NewRidgeSolver).
func SolveRidgeSums(sums []float64, n, d int, lambda float64, mean []float64, ybar float64) (w []float64, bias float64, err error) {
	tri := d * (d + 1) / 2
	switch {
	case n <= 0 || d <= 0:
		return nil, 0, fmt.Errorf("solvers: ridge sums: n = %d, d = %d, want both > 0", n, d)
	case len(sums) != tri+d:
		return nil, 0, fmt.Errorf("solvers: ridge sums: %d sums, want d(d+1)/2 + d = %d", len(sums), tri+d)
	case len(mean) != d:
		return nil, 0, fmt.Errorf("solvers: ridge sums: %d means, want d = %d", len(mean), d)
	case !(lambda >= 0) || math.IsInf(lambda, 0):
		return nil, 0, fmt.Errorf("solvers: ridge sums: lambda = %v, want finite and ≥ 0", lambda)
	}
	if i := firstNonFinite(sums); i >= 0 {
		return nil, 0, fmt.Errorf("solvers: ridge sums: sum %d is %v: %w", i, sums[i], ErrNotFinite)
	}
	if i := firstNonFinite(append(mean[:d:d], ybar)); i >= 0 {
		return nil, 0, fmt.Errorf("solvers: ridge sums: mean %d is not finite: %w", i, ErrNotFinite)
	}
	s := &RidgeSolver{n: n, d: d, lambda: lambda, mean: mean}
	a := make([]float64, d*d)
	unpackLower(a, sums[:tri], d)
	if err := s.factor(a); err != nil {
		return nil, 0, err
	}
	w = append([]float64(nil), sums[tri:]...)
	bias, err = s.finish(w, ybar)
	if err != nil {
		return nil, 0, err
	}
	return w, bias, nil
}
