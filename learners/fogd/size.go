package fogd

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the frequencies and
// their padded copy (inputs × features, twice), the weights and their
// running sums (2 × features per class, twice), and per row the
// standardised inputs and the targets.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve(max(d, 1))
	D, fd := float64(c.Features+8), float64(d)
	C := float64(max(len(c.Classes), 1))
	if c.Task == learners.Multiclass && len(c.Classes) == 0 {
		C = float64(max(k, 1))
	}
	return learners.Size{Fixed: 3*D*fd + 4*C*2*D, PerRow: fd + 2}
}
