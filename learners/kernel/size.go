package kernel

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): for the subsample
// of m = min(n, Subsample) rows, its inputs (m × inputs) and two m × m
// kernel matrices, and per row the standardised inputs.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve(max(n, 1), max(d, 1))
	m, fd := float64(c.Subsample), float64(d)
	return learners.Size{Fixed: m*fd + 2*m*m + 4*m, PerRow: fd + 2}
}
