package mfga

import (
	"errors"

	"github.com/rfkit/rfkit/learners/internal/graph"
)

// Graph reports that the model has no exportable graph: its features are
// Taylor monomials of the standardised inputs times a Gaussian factor, not
// cosines of an affine map or kernel values.
func (m *body) Graph() (*graph.Graph, error) {
	return nil, errors.New("its features are Taylor monomials of the inputs times exp(−‖z‖²/2σ²), which the exporter does not write")
}
