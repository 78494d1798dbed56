package mfga

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the candidate
// dictionary's statistics and per-block partial sums (blocks + a few ×
// candidates, and classes × candidates for multiclass; candidates grows
// as inputs² at degree 2; a dictionary above maxCandidates is Fit's own
// error), and per row the standardised inputs, the
// selected features and the residuals.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolve()
	if candidates(d, c.Degree) < 0 {
		return learners.Size{} // Fit refuses the dictionary before allocating it
	}
	m0 := float64(candidates(d, c.Degree))
	M := min(float64(c.Features), m0)
	K := 1.0
	if c.Task == learners.Multiclass {
		K = float64(max(k, 1))
	}
	_, blocks := blocks(max(n, 1))
	return learners.Size{Fixed: (float64(blocks)+8+K)*m0 + 2*M*M, PerRow: float64(d) + M + 4 + K}
}
