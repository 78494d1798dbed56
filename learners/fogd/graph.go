package fogd

import "github.com/rfkit/rfkit/learners/internal/graph"

// Graph describes the model for an exporter (graph.Grapher): the features
// [cos(z·u), sin(z·u)]/√D read out by the averaged weights, one row per
// class of a multiclass model, with no intercept.
func (b *body) Graph() (*graph.Graph, error) {
	K := rows(b.cfg)
	return &graph.Graph{Blocks: graph.SinCos(b.f.u, b.f.D, b.f.inv, b.w, K), Bias: make([]float64, K)}, nil
}
