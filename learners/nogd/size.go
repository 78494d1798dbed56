package nogd

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the landmarks
// (budget × inputs, and a copy in the model), the Nyström factor and its
// work (budget², twice), and per row the standardised inputs.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve(max(d, 1))
	B, fd := float64(c.Budget), float64(d)
	return learners.Size{Fixed: 2*B*fd + 3*B*B + 8*B, PerRow: fd + 2}
}
