// Package modelio writes and reads the header fields every learner's model
// file shares (method, model version, config, task, labels, inputs), so a
// learner's MarshalBinary and UnmarshalBinary only deal with their arrays.
package modelio

import (
	"encoding/json"
	"fmt"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

// Common is the part of a model every learner has.
type Common struct {
	Task   learners.Task
	Labels learners.Labels // Binary only
	Inputs int
}

// New returns a model file with the common header filled in and cfg
// marshalled as its config; the learner adds its arrays and meta values.
func New(method string, version int, cfg any, c Common) (*modelfile.File, error) {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	f := &modelfile.File{Header: modelfile.Header{
		Method:  method,
		Version: version,
		Config:  raw,
		Task:    c.Task.String(),
		Inputs:  c.Inputs,
		Meta:    map[string]float64{},
	}}
	if c.Task == learners.Binary {
		f.Header.Labels = c.Labels.Slice()
	}
	return f, nil
}

// Open parses a model file, checks that it was written by method with a
// model version it reads (1..maxVersion), and decodes its config into cfg
// (a pointer). The errors wrap modelfile.ErrCorrupt.
func Open(data []byte, method string, maxVersion int, cfg any) (*modelfile.File, Common, error) {
	f, err := modelfile.Parse(data)
	if err != nil {
		return nil, Common{}, err
	}
	h := &f.Header
	if h.Method != method {
		return nil, Common{}, fmt.Errorf("%w: a %q model, not %q", modelfile.ErrCorrupt, h.Method, method)
	}
	if h.Version > maxVersion {
		return nil, Common{}, fmt.Errorf("%w: %s model version %d is newer than this build reads (%d)", modelfile.ErrCorrupt, method, h.Version, maxVersion)
	}
	if err := json.Unmarshal(h.Config, cfg); err != nil {
		return nil, Common{}, fmt.Errorf("%w: config: %v", modelfile.ErrCorrupt, err)
	}
	c := Common{Inputs: h.Inputs}
	if c.Task, err = learners.ParseTask(h.Task); err != nil {
		return nil, Common{}, fmt.Errorf("%w: %v", modelfile.ErrCorrupt, err)
	}
	if c.Task == learners.Binary {
		if c.Labels, err = learners.NewLabels(h.Labels[0], h.Labels[1]); err != nil {
			return nil, Common{}, fmt.Errorf("%w: %v", modelfile.ErrCorrupt, err)
		}
	}
	return f, c, nil
}
