package gbrff

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the frequencies of
// every round (rounds × terms per round × inputs, per class for
// multiclass) with the model's copy and padded copy, and per row the
// standardised inputs and their layout copy, the block of start-phase
// sines and cosines (at most startBlock rounds) and the boosting sums. The
// calibration's fits run one after the other, each no larger.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolved(max(d, 1))
	J := float64(c.T) * float64(c.termsPerRound())
	if c.Task == learners.Multiclass {
		J *= float64(max(k, 1))
	}
	fd := float64(d + 8)
	return learners.Size{Fixed: 3*J*float64(d) + 8*J, PerRow: 3*fd + 2*startBlock + 8}
}
