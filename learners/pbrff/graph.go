package pbrff

import "github.com/rfkit/rfkit/learners/internal/graph"

// Graph describes the model for an exporter (graph.Grapher): the J = L·K
// cosines cos(w_j·z + b_j); a binary model reads them out by the
// expansion's amplitudes plus the bias, a multiclass one by q (each
// landmark's K pseudo-posterior weights) times the class coefficients.
func (m *body) Graph() (*graph.Graph, error) {
	J := len(m.b)
	blk := graph.Block{Act: graph.Cosines, D: J, W: m.w, B: m.b, Scale: 1, R: m.a}
	if m.biases == nil {
		return &graph.Graph{Blocks: []graph.Block{blk}, Bias: []float64{m.bias}}, nil
	}
	M, L, K := len(m.biases), m.cfg.Landmarks, m.cfg.K
	blk.R = make([]float64, J*M)
	for j := 0; j < L*K; j++ {
		for c := 0; c < M; c++ {
			blk.R[j*M+c] = float64(m.q[j] * m.coef[c*L+j/K])
		}
	}
	return &graph.Graph{Blocks: []graph.Block{blk}, Bias: m.biases}, nil
}
