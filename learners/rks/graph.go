package rks

import "github.com/rfkit/rfkit/learners/internal/graph"

// Graph describes the model for an exporter (graph.Grapher): the head's
// cosines, or the Nyström map's Gaussian kernel values and projection.
func (b *body) Graph() (*graph.Graph, error) {
	if b.nys != nil {
		return &graph.Graph{Blocks: []graph.Block{graph.Nystrom(b.nys, b.Coef)}, Bias: []float64{b.Bias}}, nil
	}
	return b.Head.Graph()
}
