package fogd

import (
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/modelio"
)

// modelVersion 1 arrays: "mean", "scale" (d), "u" (d×D frequencies,
// row-major), "w" (2D averaged weights: cos part, then sin part).
const modelVersion = 1

// MarshalBinary encodes the model in the rfkit model file format.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.f == nil {
		return nil, errors.New("fogd: MarshalBinary: empty model (use Fit, Snapshot or Load)")
	}
	f, err := modelio.New(Name, modelVersion, m.cfg, modelio.Common{Task: m.cfg.Task, Labels: m.cfg.Labels, Inputs: m.f.d})
	if err != nil {
		return nil, fmt.Errorf("fogd: %w", err)
	}
	f.Add("mean", m.mean)
	f.Add("scale", m.scale)
	f.Add("u", m.f.u)
	f.Add("w", m.w)
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("fogd: %w", err)
	}
	return data, nil
}

// Load decodes a model written by MarshalBinary; corrupt input gives an
// error wrapping modelfile.ErrCorrupt, never a panic.
func Load(data []byte) (*Model, error) {
	m := new(Model)
	if err := m.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return m, nil
}

// UnmarshalBinary decodes into a new, zero Model.
func (m *Model) UnmarshalBinary(data []byte) error {
	if m.f != nil {
		return errors.New("fogd: UnmarshalBinary: the model is already in use (decode into a new Model)")
	}
	var cfg Config
	f, com, err := modelio.Open(data, Name, modelVersion, &cfg)
	if err != nil {
		return fmt.Errorf("fogd: %w", err)
	}
	if err := decode(m, f, cfg, com); err != nil {
		return fmt.Errorf("fogd: %w: %v", modelfile.ErrCorrupt, err)
	}
	return nil
}

func decode(m *Model, f *modelfile.File, cfg Config, com modelio.Common) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	d, D := com.Inputs, cfg.Features
	switch {
	case cfg.Features == 0 || cfg.Gamma == 0 || cfg.Eta == 0 || cfg.Epochs == 0 || cfg.Loss == "":
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != com.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, com.Task)
	case d > math.MaxInt/D/2:
		return fmt.Errorf("%d inputs × %d features overflow", d, D)
	}
	var err error
	arr := func(name string, n int) []float64 {
		var v []float64
		if err == nil {
			v, err = f.Array(name, n)
		}
		return v
	}
	mean, scale, u, w := arr("mean", d), arr("scale", d), arr("u", d*D), arr("w", 2*D)
	if err != nil {
		return err
	}
	for k, s := range scale {
		if !(s > 0) || !finite(s) || !finite(mean[k]) {
			return fmt.Errorf("mean[%d], scale[%d] = %v, %v", k, k, mean[k], s)
		}
	}
	for _, a := range [][]float64{u, w} {
		for _, v := range a {
			if !finite(v) {
				return fmt.Errorf("non-finite parameter %v", v)
			}
		}
	}
	if cfg.Task == learners.Binary {
		cfg.Labels = com.Labels
	}
	m.cfg, m.f, m.w, m.mean, m.scale = cfg, newFeats(d, D, u), w, mean, scale
	return nil
}
