package kernel

import "github.com/rfkit/rfkit/learners/internal/graph"

// Graph describes the model for an exporter (graph.Grapher): the Gaussian
// kernel values of the support rows read out by α, plus the bias.
func (b *body) Graph() (*graph.Graph, error) {
	g := &graph.Graph{Bias: []float64{b.bias}}
	if len(b.alpha) > 0 {
		g.Blocks = []graph.Block{{Act: graph.Gaussian, D: len(b.alpha), W: b.support, Gamma: b.cfg.Gamma, R: b.alpha}}
	}
	return g, nil
}
