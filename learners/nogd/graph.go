package nogd

import "github.com/rfkit/rfkit/learners/internal/graph"

// Graph describes the model for an exporter (graph.Grapher): the Nyström
// map's Gaussian kernel values on the B landmarks, projected and read out
// by the averaged weights; before the B-th row the score is 0 (no blocks).
func (b *body) Graph() (*graph.Graph, error) {
	g := &graph.Graph{Bias: []float64{0}}
	if b.nys != nil {
		g.Blocks = []graph.Block{graph.Nystrom(b.nys, b.coef)}
	}
	return g, nil
}
