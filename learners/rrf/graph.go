package rrf

import "github.com/rfkit/rfkit/learners/internal/graph"

// Graph describes the model for an exporter (graph.Grapher): the features
// [cos(u·e), sin(u·e)]/√D of u = z ⊙ e^{γ̃} (the widths folded into the
// frequencies: W_jk = e^{γ̃_j}·e_jk) read out by the weights, one row per
// score, plus the intercepts.
func (b *body) Graph() (*graph.Graph, error) {
	p := b.p
	W := make([]float64, p.d*p.D)
	for j := 0; j < p.d; j++ {
		for k := 0; k < p.D; k++ {
			W[j*p.D+k] = float64(p.sc[j] * p.e[j*p.D+k])
		}
	}
	return &graph.Graph{Blocks: graph.SinCos(W, p.D, p.inv, p.w, p.C), Bias: p.b}, nil
}
