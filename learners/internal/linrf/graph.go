package linrf

import (
	"errors"

	"github.com/rfkit/rfkit/learners/internal/graph"
)

// Graph describes the head for an exporter (graph.Grapher): one block of
// RFF cosines, read out by Coef (one row per class of a multiclass head)
// plus Bias or Biases.
func (h *Head) Graph() (*graph.Graph, error) {
	if h.RFF == nil {
		return nil, errors.New("linrf: the head has no random Fourier features")
	}
	w, b := h.RFF.Weights()
	D := len(b)
	if h.RFF.Outputs() != D {
		return nil, errors.New("linrf: a head on paired features")
	}
	if h.Biases == nil {
		return &graph.Graph{Blocks: []graph.Block{{Act: graph.Cosines, D: D, W: w, B: b, Scale: h.RFF.Scale(), R: h.Coef}},
			Bias: []float64{h.Bias}}, nil
	}
	K := len(h.Biases)
	return &graph.Graph{Blocks: []graph.Block{{Act: graph.Cosines, D: D, W: w, B: b, Scale: h.RFF.Scale(), R: graph.Transpose(h.Coef, K, D)}},
		Bias: h.Biases}, nil
}
