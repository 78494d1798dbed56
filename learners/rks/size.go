package rks

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the frequencies
// and their copies (features × inputs), a features × features system (the
// ridge's normal equations, the Nyström kernel), and per row the
// standardised inputs and the feature row.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve(max(d, 1))
	D, fd := float64(c.Features), float64(d)
	return learners.Size{Fixed: 3*D*fd + 2*D*D, PerRow: 2*fd + 2*D + 4}
}
