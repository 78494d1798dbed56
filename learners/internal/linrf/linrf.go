// Package linrf is the linear random-feature body that rks, eerf/lkrf
// (package rfselect) and prff share: a linear model on random Fourier
// features, score(z) = coef·φ(z) + bias, on standardised inputs z.
package linrf

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Head is the fitted map and read-out. Its score goes through the fused
// epilogue featmap.RFF.CombineRow (the features are never stored), so every
// learner built on it predicts at the same speed and, its sums being in
// asm's canonical 8-lane order, to the same bits on every path.
type Head struct {
	RFF  *featmap.RFF
	Coef []float64 // len RFF.Outputs()
	Bias float64
}

// NewWork: CombineRow needs no scratch.
func (*Head) NewWork() any { return nil }

// Score is coef·φ(z) + bias.
func (h *Head) Score(z []float64, _ any) float64 { return h.RFF.CombineRow(z, h.Coef) + h.Bias }

// Encode adds the arrays "w" (d×D frequencies, row-major), "b" (D phases)
// and "coef" (D weights), and the meta value "bias". The frequencies are
// stored, never re-drawn from a seed.
func (h *Head) Encode(e *learners.Encoder) {
	w, b := h.RFF.Weights()
	e.Array("w", w)
	e.Array("b", b)
	e.Array("coef", h.Coef)
	e.Meta("bias", h.Bias)
}

// Decode reads what Encode wrote for a map of d.Inputs → D features.
func (h *Head) Decode(d *learners.Decoder, D int) error {
	if D <= 0 || d.Inputs > math.MaxInt/D {
		return fmt.Errorf("%d inputs × %d features overflow", d.Inputs, D)
	}
	w, b, coef, bias := d.Array("w", d.Inputs*D), d.Array("b", D), d.Array("coef", D), d.Meta("bias")
	if err := d.Err(); err != nil {
		return err
	}
	rff, err := featmap.NewRFFFromWeights(w, b, d.Inputs, D, false)
	if err != nil {
		return err
	}
	h.RFF, h.Coef, h.Bias = rff, coef, bias
	return nil
}
