package mfga

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners/internal/modelio"
)

// modelVersion is the version of the arrays below, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "index" (k selected dictionary indices, as integers), "coef" (k
// coefficients), "risk" (the training risk path, k' + 1 ≤ k + 1 values);
// meta "bias", "selected" (k). σ is in the config.
const modelVersion = 1

// MarshalBinary encodes the model in the rfkit model file format.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.mean == nil {
		return nil, errors.New("mfga: MarshalBinary: empty model (use Fit or Load)")
	}
	f, err := modelio.New(Name, modelVersion, m.cfg, modelio.Common{Task: m.cfg.Task, Labels: m.labels, Inputs: len(m.mean)})
	if err != nil {
		return nil, fmt.Errorf("mfga: %w", err)
	}
	idx := make([]float64, len(m.index))
	for t, j := range m.index {
		idx[t] = float64(j)
	}
	f.Add("mean", m.mean)
	f.Add("scale", m.scale)
	f.Add("index", idx)
	f.Add("coef", m.coef)
	f.Add("risk", m.path)
	f.Header.Meta["bias"] = m.bias
	f.Header.Meta["selected"] = float64(len(m.index))
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("mfga: %w", err)
	}
	return data, nil
}

// Load decodes a model written by MarshalBinary. Corrupt, truncated or
// hostile input gives an error wrapping modelfile.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) {
	m := new(Model)
	if err := m.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return m, nil
}

// UnmarshalBinary decodes a model written by MarshalBinary into m, which
// must be a new, zero Model: models are immutable once built.
func (m *Model) UnmarshalBinary(data []byte) error {
	if m.mean != nil {
		return errors.New("mfga: UnmarshalBinary: the model is already in use (models are immutable; decode into a new Model)")
	}
	var cfg Config
	f, com, err := modelio.Open(data, Name, modelVersion, &cfg)
	if err != nil {
		return fmt.Errorf("mfga: %w", err)
	}
	if err := decodeFile(m, f, cfg, com); err != nil {
		return fmt.Errorf("mfga: %w: %v", modelfile.ErrCorrupt, err)
	}
	return nil
}

// decodeFile checks the stored config and arrays and fills m.
func decodeFile(m *Model, f *modelfile.File, cfg Config, com modelio.Common) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	d := com.Inputs
	switch {
	case cfg.Features == 0 || cfg.PerStep == 0 || cfg.Degree == 0 || cfg.Sigma == 0 || cfg.Lambda == 0 || cfg.Tol == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != com.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, com.Task)
	case d <= 0:
		return fmt.Errorf("%d inputs", d)
	}
	m0 := candidates(d, cfg.Degree)
	if m0 < 0 {
		return fmt.Errorf("%d inputs give too many degree-%d candidates", d, cfg.Degree)
	}
	sel, err := f.Meta("selected")
	if err != nil {
		return err
	}
	if !(sel >= 0 && sel <= float64(min(cfg.Features, m0))) || sel != math.Trunc(sel) {
		return fmt.Errorf("selected = %v, want an integer in 0..%d", sel, min(cfg.Features, m0))
	}
	k := int(sel)
	arr := func(name string, n int) []float64 {
		var v []float64
		if err == nil {
			v, err = f.Array(name, n)
		}
		return v
	}
	mean, scale, idx, coef, risk := arr("mean", d), arr("scale", d), arr("index", k), arr("coef", k), arr("risk", -1)
	if err != nil {
		return err
	}
	if len(risk) < 1 || len(risk) > k+1 {
		return fmt.Errorf("risk path has %d values, want 1..%d", len(risk), k+1)
	}
	for c, s := range scale {
		if !(s > 0) {
			return fmt.Errorf("scale[%d] = %v, want > 0", c, s)
		}
	}
	index := make([]int, k)
	for t, v := range idx {
		if !(v >= 0 && v < float64(m0)) || v != math.Trunc(v) {
			return fmt.Errorf("index[%d] = %v, want an integer in 0..%d", t, v, m0-1)
		}
		index[t] = int(v)
	}
	bias, err := f.Meta("bias")
	if err != nil {
		return err
	}
	m.cfg, m.labels, m.mean, m.scale, m.index, m.coef, m.bias, m.path = cfg, com.Labels, mean, scale, index, coef, bias, risk
	m.decodeFeatures()
	return nil
}

// WriteTo writes MarshalBinary's bytes to w.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	data, err := m.MarshalBinary()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(data)
	return int64(n), err
}

// ReadFrom reads r to EOF and decodes it with UnmarshalBinary.
func (m *Model) ReadFrom(r io.Reader) (int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return int64(len(data)), fmt.Errorf("mfga: %w", err)
	}
	return int64(len(data)), m.UnmarshalBinary(data)
}
