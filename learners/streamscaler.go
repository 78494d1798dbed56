package learners

import (
	"fmt"
	"slices"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
)

// StreamScaler is the input standardisation an online learner (rrf, fogd)
// carries: z_j = (x_j − mean_j)/scale_j, the same arithmetic as a fitted
// model's, so a Snapshot predicts raw rows with the same bits. The zero
// value uses rows as given. It is not safe for concurrent use (a learner
// has a single writer).
type StreamScaler struct {
	mean, scale, z []float64
}

// Set installs mean and scale for d inputs (copied); both nil removes the
// standardisation. mean must be finite and scale finite and > 0.
func (s *StreamScaler) Set(d int, mean, scale []float64) error {
	if mean == nil && scale == nil {
		*s = StreamScaler{}
		return nil
	}
	if len(mean) != d || len(scale) != d {
		return fmt.Errorf("%d means and %d scales, the learner takes %d inputs", len(mean), len(scale), d)
	}
	for j := range mean {
		if !xmath.Finite(mean[j]) || !xmath.Finite(scale[j]) || !(scale[j] > 0) {
			return fmt.Errorf("input %d has mean %v and scale %v, want finite and scale > 0", j, mean[j], scale[j])
		}
	}
	*s = StreamScaler{mean: slices.Clone(mean), scale: slices.Clone(scale), z: make([]float64, d)}
	return nil
}

// SetFrom installs the statistics Fit would compute on X (d columns,
// finite values).
func (s *StreamScaler) SetFrom(d int, X featmap.Matrix) error {
	if err := CheckShape(X, d); err != nil {
		return err
	}
	if err := CheckData(X, make([]float64, X.Rows)); err != nil {
		return err
	}
	mean, scale, _, err := Standardize(X)
	if err != nil {
		return err
	}
	return s.Set(d, mean, scale)
}

// Get returns copies of the means and scales (nil without a
// standardisation).
func (s *StreamScaler) Get() (mean, scale []float64) {
	return slices.Clone(s.mean), slices.Clone(s.scale)
}

// Apply returns x standardised into the scaler's scratch row, or x itself
// without a standardisation. It allocates nothing.
func (s *StreamScaler) Apply(x []float64) []float64 {
	if s.mean == nil {
		return x
	}
	z := s.z[:len(x)]
	for j, v := range x {
		z[j] = (v - s.mean[j]) / s.scale[j]
	}
	return z
}
