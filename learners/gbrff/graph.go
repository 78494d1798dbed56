package gbrff

import (
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/graph"
)

// Graph describes the model for an exporter (graph.Grapher): the J
// cosines a_j·cos(w_j·z + b_j) of both variants (a GBRFF1 landmark is K
// of them), summed per class of a multiclass model, plus H⁰; the link is
// the calibrated temperature when the model has one, else the exponential
// loss's half log-odds (binary), the softmax (multiclass) or none.
//
// A model with an input encoding (Config.Inputs "auto") has it as the
// graph's Encoding, which the cosines read.
func (m *body) Graph() (*graph.Graph, error) {
	J := len(m.b)
	blk := graph.Block{Act: graph.Cosines, D: J, W: m.w, B: m.b, Scale: 1, R: m.a}
	g := &graph.Graph{Bias: []float64{m.h0}, Encoding: m.enc.graph()}
	switch {
	case m.cfg.Task == learners.Multiclass:
		K := len(m.h0s)
		per := J / K
		blk.R = make([]float64, J*K)
		for col := range J {
			blk.R[col*K+col/per] = m.a[col]
		}
		g.Bias, g.Link = m.h0s, graph.Link{Kind: graph.Softmax, Temp: 1}
	case m.cfg.Task == learners.Regression:
		g.Link = graph.Link{Kind: graph.None}
	case m.temp != nil:
		g.Link = graph.Link{Kind: graph.Sigmoid, Temp: m.temp[0]}
	default:
		g.Link = graph.Link{Kind: graph.Sigmoid, Temp: 2}
	}
	if J > 0 {
		g.Blocks = []graph.Block{blk}
	}
	return g, nil
}
