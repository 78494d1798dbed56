package pbrff

import "github.com/rfkit/rfkit/learners"

// FitSize states what Fit allocates (checked by learners.CheckSize): the landmarks
// (landmarks × inputs) and the frequencies with their draws (landmarks ×
// K × inputs, four times: draws, frequencies and their working copies), the per-frequency losses and sums, and per row the
// standardised inputs and the landmark features.
func (c Config) FitSize(n, d, k int) learners.Size {
	c = c.resolved(max(d, 1))
	L, J, fd := float64(c.Landmarks), float64(c.Landmarks)*float64(c.K), float64(d)
	return learners.Size{Fixed: 4*J*fd + L*fd + 8*J, PerRow: fd + 2*L + 4}
}
