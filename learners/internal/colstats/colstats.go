// Package colstats computes the column standardisation every learner applies,
// with the exact blocked sums that make a distributed fit (package beam) get
// the same bits.
package colstats

import (
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/exactsum"
	"github.com/rfkit/rfkit/internal/xmath"
)

// Standardize is learners.Standardize with row weights w (nil: all 1, and every
// product by a weight exact, so the bits are those of the unweighted
// formulas) and, if missing, NaN inputs as missing values: each column's
// mean and population standard deviation are the weighted ones over the
// rows where it is present, Σ w·x / Σ w and √(Σ w·(x − mean)² / Σ w)
// (corrected two-pass), and a missing value becomes 0; a column with no
// value is an error. Without missing, a NaN makes its column's mean NaN,
// an error.
func Standardize(X featmap.Matrix, w []float64, missing bool) (mean, scale, xs []float64, err error) {
	n, d := X.Rows, X.Cols
	xs = make([]float64, n*d)
	for i := 0; i < n; i++ {
		copy(xs[i*d:(i+1)*d], X.Row(i))
	}
	wt := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	// Every sum over rows runs in row order within blocks of
	// exactsum.Block rows and adds the blocks exactly, so that a
	// distributed fit (package beam) gets the same bits.
	mean, scale = make([]float64, d), make([]float64, d)
	ws, ss, sc := make([]float64, d), make([]float64, d), make([]float64, d)
	sum := exactsum.NewBlocked(2 * d) // Σ w·x, then Σ w
	for lo := 0; lo < n; lo += exactsum.Block {
		for i := lo; i < min(lo+exactsum.Block, n); i++ {
			wi := wt(i)
			for j, v := range xs[i*d : (i+1)*d] {
				if !missing || v == v {
					sum.Part[j] += float64(wi * v)
					sum.Part[d+j] += wi
				}
			}
		}
		sum.EndBlock()
	}
	sum.Sums(sum.Part)
	copy(mean, sum.Part[:d])
	copy(ws, sum.Part[d:])
	for j := range mean {
		if ws[j] == 0 {
			return nil, nil, nil, fmt.Errorf("column %d: every value is missing (NaN)", j)
		}
		mean[j] /= ws[j]
	}
	sum = exactsum.NewBlocked(2 * d) // Σ w·(x − mean)², then Σ w·(x − mean)
	for lo := 0; lo < n; lo += exactsum.Block {
		for i := lo; i < min(lo+exactsum.Block, n); i++ {
			wi := wt(i)
			for j, v := range xs[i*d : (i+1)*d] {
				if !missing || v == v {
					dv := v - mean[j]
					sum.Part[j] += float64(wi * float64(dv*dv))
					sum.Part[d+j] += float64(wi * dv)
				}
			}
		}
		sum.EndBlock()
	}
	sum.Sums(sum.Part)
	copy(ss, sum.Part[:d])
	copy(sc, sum.Part[d:])
	for j := range scale {
		sd := math.Sqrt(math.Max(0, (ss[j]-float64(sc[j]*sc[j])/ws[j])/ws[j]))
		switch {
		case (!xmath.Finite(sd) || !xmath.Finite(mean[j])) && slices.Max(append([]float64{1}, w...)) > 1:
			return nil, nil, nil, fmt.Errorf("weights: the weighted mean or standard deviation of column %d overflows float64 (the largest weight is %g): scale the weights down, only their ratios matter", j, slices.Max(w))
		case !xmath.Finite(sd) || !xmath.Finite(mean[j]):
			return nil, nil, nil, fmt.Errorf("column %d: mean or standard deviation overflows float64", j)
		case sd == 0: // constant column (or a spread that underflows): centre it only
			sd = 1
		}
		scale[j] = sd
	}
	for i := 0; i < n; i++ {
		row := xs[i*d : (i+1)*d]
		asm.Standardize(row, row, mean, scale) // (v − mean)/scale, 0 for a NaN v
	}
	return mean, scale, xs, nil
}
