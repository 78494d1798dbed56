package solvers

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ProjectSimplex writes into dst the Euclidean projection of v onto the
// scaled simplex {x : x ≥ 0, Σx = s}, by the sort-based algorithm (Held,
// Wolfe and Crowder 1974; Duchi et al. 2008), O(n log n).
//
// dst and v must have the same length; dst may be v itself (then a scratch
// copy is allocated) but must not otherwise overlap it. Errors: length
// mismatch, empty v, NaN/Inf in v, s ≤ 0 or non-finite.
func ProjectSimplex(dst, v []float64, s float64) error {
	if err := checkSimplexArgs(dst, v, s); err != nil {
		return fmt.Errorf("solvers: ProjectSimplex: %w", err)
	}
	scratch := dst
	if &dst[0] == &v[0] {
		scratch = make([]float64, len(v))
	}
	projectSimplex(dst, v, scratch, s)
	return nil
}

func checkSimplexArgs(dst, v []float64, s float64) error {
	if len(v) == 0 {
		return errors.New("empty vector")
	}
	if len(dst) != len(v) {
		return fmt.Errorf("len(dst) = %d, want len(v) = %d", len(dst), len(v))
	}
	if !(s > 0) || math.IsInf(s, 0) {
		return fmt.Errorf("simplex size s = %v, want finite and > 0", s)
	}
	if i := firstNonFinite(v); i >= 0 {
		return fmt.Errorf("v[%d] = %v: %w", i, v[i], ErrNotFinite)
	}
	return nil
}

// projectSimplex is ProjectSimplex without checks; scratch (len(v)) must not
// alias v, and may alias dst.
func projectSimplex(dst, v, scratch []float64, s float64) {
	copy(scratch, v)
	slices.Sort(scratch) // ascending; walk from the largest
	var cum, theta float64
	n := len(scratch)
	for j := 1; j <= n; j++ {
		u := scratch[n-j]
		cum += u
		t := (cum - s) / float64(j)
		if u-t > 0 {
			theta = t
		} else {
			break
		}
	}
	for i, x := range v {
		dst[i] = math.Max(x-theta, 0)
	}
}
