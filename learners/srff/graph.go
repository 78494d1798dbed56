package srff

import "github.com/rfkit/rfkit/learners/internal/graph"

// Graph describes the model for an exporter (graph.Grapher): the RFF
// cosines of the scaled frequencies γ_k·ε_kj read out by the coefficients,
// plus the intercept.
func (m *body) Graph() (*graph.Graph, error) {
	w, b := m.rff.Weights()
	return &graph.Graph{Blocks: []graph.Block{{Act: graph.Cosines, D: len(b), W: w, B: b, Scale: m.rff.Scale(), R: m.coef}},
		Bias: []float64{m.intercept}}, nil
}
