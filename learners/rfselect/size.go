package rfselect

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the candidate
// frequencies (candidates × inputs), a block of candidate features and
// the per-class scores, the selected map and the linear model's system,
// and per row the standardised inputs, the selected features and the
// selection's statistics.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve(max(d, 1))
	M0, M, fd := float64(c.Candidates), float64(c.Features), float64(d)
	K := float64(max(k, 2))
	return learners.Size{Fixed: 2*M0*fd + (blockRows+K+4)*M0 + 2*M*fd + 2*M*M, PerRow: 2*fd + 2*M + 4 + K}
}
