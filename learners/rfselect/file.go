package rfselect

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners/internal/modelio"
)

// modelVersion is the version of the arrays below, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "w" (d×D row-major frequencies), "b" (D phases), "coef" (D weights); meta
// "bias". The frequencies are stored, never re-drawn from the seed.
const modelVersion = 1

// MarshalBinary encodes the model in the rfkit model file format.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.rff == nil {
		return nil, errors.New("rfselect: MarshalBinary: empty model (use Fit or Load)")
	}
	f, err := modelio.New(string(m.cfg.Selection), modelVersion, m.cfg, modelio.Common{Task: m.cfg.Task, Labels: m.labels, Inputs: len(m.mean)})
	if err != nil {
		return nil, fmt.Errorf("rfselect: %w", err)
	}
	w, b := m.rff.Weights()
	f.Add("mean", m.mean)
	f.Add("scale", m.scale)
	f.Add("w", w)
	f.Add("b", b)
	f.Add("coef", m.coef)
	f.Header.Meta["bias"] = m.bias
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("rfselect: %w", err)
	}
	return data, nil
}

// Load decodes a model written by MarshalBinary (method "eerf" or "lkrf"). Corrupt, truncated or
// hostile input gives an error wrapping modelfile.ErrCorrupt, never a panic;
// memory use is proportional to len(data).
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
	if m.rff != nil {
		return errors.New("rfselect: UnmarshalBinary: the model is already in use (models are immutable; decode into a new Model)")
	}
	var cfg Config
	method := string(EERFSelection)
	if h, err := modelfile.ReadHeader(data); err == nil && h.Method == string(LKRFSelection) {
		method = string(LKRFSelection)
	}
	f, com, err := modelio.Open(data, method, modelVersion, &cfg)
	if err != nil {
		return fmt.Errorf("rfselect: %w", err)
	}
	if err := decode(m, f, cfg, com); err != nil {
		return fmt.Errorf("rfselect: %w: %v", modelfile.ErrCorrupt, err)
	}
	return nil
}

// decode checks the stored config and arrays and fills m.
func decode(m *Model, f *modelfile.File, cfg Config, com modelio.Common) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	d, D := com.Inputs, cfg.Features
	switch {
	case cfg.Selection == "" || cfg.Features == 0 || cfg.Candidates == 0 || cfg.Gamma == 0 || cfg.Rho == 0 || cfg.Lambda == 0 || cfg.Loss == "":
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case string(cfg.Selection) != f.Header.Method:
		return fmt.Errorf("config selection %q in a %q model", cfg.Selection, f.Header.Method)
	case cfg.Task != com.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, com.Task)
	case d > math.MaxInt/D:
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
	mean, scale, w, b, coef := arr("mean", d), arr("scale", d), arr("w", d*D), arr("b", D), arr("coef", D)
	if err != nil {
		return err
	}
	for k, s := range scale {
		if !(s > 0) {
			return fmt.Errorf("scale[%d] = %v, want > 0", k, s)
		}
	}
	bias, err := f.Meta("bias")
	if err != nil {
		return err
	}
	rff, err := featmap.NewRFFFromWeights(w, b, d, D, false)
	if err != nil {
		return err
	}
	m.cfg, m.labels, m.mean, m.scale, m.rff, m.coef, m.bias = cfg, com.Labels, mean, scale, rff, coef, bias
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
		return int64(len(data)), fmt.Errorf("rfselect: %w", err)
	}
	return int64(len(data)), m.UnmarshalBinary(data)
}
