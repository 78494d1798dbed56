package gbrff

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/exploss"
)

// standardizedData fits the scaler on the rows `rows` of X (nil: every
// row) and returns them
// standardised as exploss.Data: one standardised copy, which NewData turns
// into its own layout. The generic path (prep.Rows, then prep.Standardize,
// then exploss.NewData) made three copies of the n×d inputs, 48 MB at
// n = 10⁵, d = 20; this makes one, exploss's (NewStandardizedData, on up to
// threads goroutines).
//
// The scaler and the values are the bits of prep.Standardize followed by
// exploss.NewData (the same sums in the same order, every product rounded on
// its own so no architecture fuses it into an FMA), which
// TestStandardizedDataMatchesPrep checks. X must have passed prep.Check.
func standardizedData(X featmap.Matrix, rows []int, threads int) (*dataset.Scaler, *exploss.Data, error) {
	s, err := scalerOf(X, rows)
	if err != nil {
		return nil, nil, err
	}
	d := X.Cols
	// exploss owns its layout (and may change it): it standardises the
	// rows straight into it, rejecting non-finite values.
	x, err := exploss.NewStandardizedData(X.Data, X.Stride, rows, rowCount(X, rows), d, s.Mean, s.Scale, threads)
	if err != nil {
		return nil, nil, err
	}
	return s, x, nil
}

// scalerOf is the standardisation of the rows `rows` of X (nil: every row)
// that standardizedData applies: the means, and the population standard
// deviations by the corrected two-pass formula (1 for a constant column).
func scalerOf(X featmap.Matrix, rows []int) (*dataset.Scaler, error) {
	n, d := rowCount(X, rows), X.Cols
	s := &dataset.Scaler{Mean: make([]float64, d), Scale: make([]float64, d)}
	ss, sc := make([]float64, d), make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range X.Row(rowAt(rows, i)) {
			s.Mean[j] += v
		}
	}
	for j := range s.Mean {
		s.Mean[j] /= float64(n)
	}
	for i := 0; i < n; i++ {
		for j, v := range X.Row(rowAt(rows, i)) {
			dv := v - s.Mean[j]
			ss[j] += float64(dv * dv)
			sc[j] += dv
		}
	}
	for j := range s.Scale {
		sd := math.Sqrt(math.Max(0, (ss[j]-float64(sc[j]*sc[j])/float64(n))/float64(n)))
		switch {
		case math.IsNaN(sd) || math.IsInf(sd, 0) || math.IsNaN(s.Mean[j]) || math.IsInf(s.Mean[j], 0):
			return nil, fmt.Errorf("column %d: mean or standard deviation overflows float64", j)
		case sd == 0: // constant column (or a spread that underflows): centre it only
			sd = 1
		}
		s.Scale[j] = sd
	}
	return s, nil
}
