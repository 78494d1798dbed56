package prff

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
// "w" (d×D row-major learned frequencies), "b" (D phases), "coef" (D
// weights), "losses" (D final mini-batch Gram losses); meta "bias". The
// config holds the resolved γ and α. The learned frequencies are stored,
// never re-learned.
const modelVersion = 1

// MarshalBinary encodes the model in the rfkit model file format.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.fmap == nil {
		return nil, errors.New("prff: MarshalBinary: empty model (use Fit or Load)")
	}
	f, err := modelio.New(Name, modelVersion, m.cfg, modelio.Common{Task: m.cfg.Task, Labels: m.labels, Inputs: len(m.mean)})
	if err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	w, b := m.fmap.Weights()
	f.Add("mean", m.mean)
	f.Add("scale", m.scale)
	f.Add("w", w)
	f.Add("b", b)
	f.Add("coef", m.coef)
	f.Add("losses", m.fmap.losses)
	f.Header.Meta["bias"] = m.bias
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("prff: %w", err)
	}
	return data, nil
}

// Load decodes a model written by MarshalBinary. Corrupt, truncated or
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
	if m.fmap != nil || m.mean != nil {
		return errors.New("prff: UnmarshalBinary: the model is already in use (models are immutable; decode into a new Model)")
	}
	var cfg Config
	f, com, err := modelio.Open(data, Name, modelVersion, &cfg)
	if err != nil {
		return fmt.Errorf("prff: %w", err)
	}
	if err := decode(m, f, cfg, com); err != nil {
		return fmt.Errorf("prff: %w: %v", modelfile.ErrCorrupt, err)
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
	case cfg.Features == 0 || cfg.Gamma == 0 || cfg.Alpha == 0 || cfg.Batch == 0 ||
		cfg.MaxIter == 0 || cfg.Tol == 0 || cfg.Lambda == 0 || cfg.Loss == "":
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
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
	mean, scale, w, b := arr("mean", d), arr("scale", d), arr("w", d*D), arr("b", D)
	coef, losses := arr("coef", D), arr("losses", D)
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
	fm := &Map{rff: rff, gamma: cfg.Gamma, alpha: cfg.Alpha, losses: losses}
	m.cfg, m.labels, m.mean, m.scale, m.fmap, m.coef, m.bias = cfg, com.Labels, mean, scale, fm, coef, bias
	newModel(m)
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
		return int64(len(data)), fmt.Errorf("prff: %w", err)
	}
	return int64(len(data)), m.UnmarshalBinary(data)
}
