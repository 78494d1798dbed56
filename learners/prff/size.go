package prff

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the learned
// frequencies (features × inputs, twice), a mini-batch's pairs and
// gradients, the linear model's features × features system, and per row
// the standardised inputs (twice) and the feature row.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve()
	D, fd, b := float64(c.Features), float64(d), float64(c.Batch)
	return learners.Size{Fixed: 3*D*fd + 2*D*D + 2*b*b + 4*b*fd, PerRow: 3*fd + 2*D + 4}
}
