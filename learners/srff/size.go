package srff

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the noise, the
// scaled frequencies and their gradients (a few × inputs × features), the
// ridge's Gram and Cholesky factor (features², per stripe), the σ rule's
// distances among at most sigmaRows rows, and per row the standardised
// and scaled inputs, the feature matrix and its θ (features + 1 each).
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve(max(d, 1))
	D, fd := float64(c.Features+8), float64(d)
	m := float64(min(n, sigmaRows))
	return learners.Size{Fixed: 6*D*fd + 4*D*D + m*m + 2*blockRows*(D+fd), PerRow: 3*fd + 2*(D+1) + 4}
}
