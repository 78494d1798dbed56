package kit

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/xmath"
)

// CheckRow is an online learner's check of one row: d values, all finite.
func CheckRow(x []float64, d int) error {
	if len(x) != d {
		return fmt.Errorf("len(x) = %d, the learner takes %d inputs", len(x), d)
	}
	for j, v := range x {
		if !xmath.Finite(v) {
			return fmt.Errorf("x[%d] is %v: inputs must be finite", j, v)
		}
	}
	return nil
}
