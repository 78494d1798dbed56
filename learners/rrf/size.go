package rrf

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the frequencies,
// their padded copy and transpose, and their gradients (a few × inputs ×
// features), the weights and their gradients (2 × features per class),
// and per row the standardised inputs and the targets.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve(max(d, 1))
	D, fd := float64(c.Features+8), float64(d+8)
	C := float64(max(len(c.Classes), 1))
	if c.Multiclass || c.Task == learners.Multiclass {
		C = float64(max(k, 1))
	}
	return learners.Size{Fixed: 5*D*fd + 4*C*2*D, PerRow: fd + 2}
}
