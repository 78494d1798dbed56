package main

import (
	"fmt"
	"os"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

// loadModel reads a model file written by any linked-in learner and
// returns it with the method that wrote it.
func loadModel(path string) (learners.Model, string, error) {
	if path == "" {
		return nil, "", usagef("-model is required")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	h, err := modelfile.ReadHeader(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: not an rfkit model file (%v)", path, err)
	}
	m, err := learners.Load(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return m, h.Method, nil
}
