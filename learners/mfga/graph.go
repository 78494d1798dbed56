package mfga

import (
	"math"

	"github.com/rfkit/rfkit/learners/internal/graph"
)

// Graph describes the model for an exporter (graph.Grapher): the selected
// dictionary entries as monomials of at most two standardised inputs,
// those of the Taylor map times e^{−‖z‖²/2σ²}, read out by the
// coefficients (one row per class of a multiclass model) plus the
// intercept(s).
func (m *body) Graph() (*graph.Graph, error) {
	k, inv := len(m.feats), 1/m.cfg.Sigma
	blk := graph.Block{Act: graph.Monomials, D: k, Gamma: 0.5 * inv * inv,
		I: make([]int, 2*k), C: make([]float64, k), Gauss: make([]bool, k)}
	for t, f := range m.feats {
		a, b, c, g := 0, 0, 1.0, true
		switch f.kind {
		case kindFirst:
			a, c = int(f.k)+1, inv
		case kindSquare:
			a, b, c = int(f.k)+1, int(f.k)+1, inv*inv/math.Sqrt2
		case kindCross:
			a, b, c = int(f.k)+1, int(f.l)+1, inv*inv
		case kindLinear:
			a, g = int(f.k)+1, false
		}
		blk.I[2*t], blk.I[2*t+1], blk.C[t], blk.Gauss[t] = a, b, c, g
	}
	g := &graph.Graph{}
	if m.biases != nil {
		blk.R, g.Bias = graph.Transpose(m.coefs, len(m.biases), k), m.biases
	} else {
		blk.R, g.Bias = m.coef, []float64{m.bias}
	}
	if k > 0 {
		g.Blocks = []graph.Block{blk}
	}
	return g, nil
}
