package pbrff

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/modelio"
)

// modelVersion is the version of the arrays below, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "landmarks" (L×d row-major, standardised coordinates), "w" (d×L·K
// row-major: frequency ω_lk is column l·K + k), "q" (L×K pseudo-posterior
// weights), "coef" (L classifier weights); meta "bias". The frequencies are
// stored, never re-drawn from the seed; the expansion's phases −ω_lk·l and
// amplitudes c_l·q_lk are recomputed on load with the same arithmetic as
// Fit, so a loaded model scores exactly as the original.
const modelVersion = 1

// MarshalBinary encodes the model in the rfkit model file format.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.mean == nil {
		return nil, errors.New("pbrff: MarshalBinary: empty model (use Fit or Load)")
	}
	f, err := modelio.New(Name, modelVersion, m.cfg, modelio.Common{Task: learners.Binary, Labels: m.labels, Inputs: len(m.mean)})
	if err != nil {
		return nil, fmt.Errorf("pbrff: %w", err)
	}
	f.Add("mean", m.mean)
	f.Add("scale", m.scale)
	f.Add("landmarks", m.landmarks)
	f.Add("w", m.w)
	f.Add("q", m.q)
	f.Add("coef", m.coef)
	f.Header.Meta["bias"] = m.bias
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("pbrff: %w", err)
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
	if m.mean != nil {
		return errors.New("pbrff: UnmarshalBinary: the model is already in use (models are immutable; decode into a new Model)")
	}
	var cfg Config
	f, com, err := modelio.Open(data, Name, modelVersion, &cfg)
	if err != nil {
		return fmt.Errorf("pbrff: %w", err)
	}
	if err := decode(m, f, cfg, com); err != nil {
		return fmt.Errorf("pbrff: %w: %v", modelfile.ErrCorrupt, err)
	}
	newModel(m)
	return nil
}

// decode checks the stored config and arrays and fills m.
func decode(m *Model, f *modelfile.File, cfg Config, com modelio.Common) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	d := com.Inputs
	switch {
	case com.Task != learners.Binary:
		return fmt.Errorf("task %v, want binary", com.Task)
	case d <= 0:
		return fmt.Errorf("%d inputs, want ≥ 1", d)
	case !reflect.DeepEqual(cfg, cfg.resolved(d)) || cfg.Gamma == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	}
	L, K := cfg.Landmarks, cfg.K
	J := L * K // ≤ MaxFeatures (Validate)
	if d > math.MaxInt/8/J {
		return fmt.Errorf("%d inputs × %d frequencies overflow", d, J)
	}
	var err error
	arr := func(name string, n int) []float64 {
		var v []float64
		if err == nil {
			v, err = f.Array(name, n)
		}
		return v
	}
	mean, scale, landmarks := arr("mean", d), arr("scale", d), arr("landmarks", L*d)
	w, q, coef := arr("w", d*J), arr("q", J), arr("coef", L)
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
	m.cfg, m.labels, m.mean, m.scale = cfg, com.Labels, mean, scale
	m.landmarks, m.w, m.q, m.coef, m.bias = landmarks, w, q, coef, bias
	m.b = phases(w, landmarks, d, L, K)
	m.a = amplitudes(coef, q, K)
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
		return int64(len(data)), fmt.Errorf("pbrff: %w", err)
	}
	return int64(len(data)), m.UnmarshalBinary(data)
}
