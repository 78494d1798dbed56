package onnx_test

import (
	"math"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/graph"
)

// plattBody is a test learner whose probabilities are Platt-scaled,
// p = σ(1.5·s + 0.3), with the score s = Σ_k 0.7·cos(z_k + 0.5) − 0.2: it
// checks the exporter's Sigmoid link with a temperature and a shift, which
// no learner of the module uses yet.
type plattBody struct{ d int }

const plattTemp, plattShift = 1.5, 0.3

func (*plattBody) Spec() kit.Spec {
	return kit.Spec{Name: "platt", Methods: []string{"platt"}, Version: 1}
}
func (*plattBody) NewWork() any { return nil }
func (*plattBody) Score(z []float64, _ any) float64 {
	s := -0.2
	for _, v := range z {
		s += 0.7 * math.Cos(v+0.5)
	}
	return s
}
func (*plattBody) Encode(e *kit.Encoder) error { return e.Config(struct{}{}) }
func (*plattBody) Decode(*kit.Decoder) error   { return nil }
func (*plattBody) Calibrated(s float64) (float64, bool) {
	return 1 / (1 + math.Exp(-(plattTemp*s + plattShift))), true
}

func (b *plattBody) Graph() (*graph.Graph, error) {
	W, B, R := make([]float64, b.d*b.d), make([]float64, b.d), make([]float64, b.d)
	for k := range b.d {
		W[k*b.d+k], B[k], R[k] = 1, 0.5, 0.7
	}
	return &graph.Graph{Blocks: []graph.Block{{Act: graph.Cosines, D: b.d, W: W, B: B, Scale: 1, R: R}},
		Bias: []float64{-0.2}, Link: graph.Link{Kind: graph.Sigmoid, Temp: plattTemp, Shift: plattShift}}, nil
}

// plattModel builds the test learner's model on the standardisation of ds.
func plattModel(ds *dataset.Dataset) learners.Model {
	mean, scale := standardisation(ds)
	b := new(kit.Base[plattBody, *plattBody])
	kit.Build(b, learners.Common{Task: learners.Binary, Labels: learners.Labels{Neg: -1, Pos: 1}, Mean: mean, Scale: scale, Link: kit.Logistic},
		&plattBody{d: ds.D})
	return b
}
