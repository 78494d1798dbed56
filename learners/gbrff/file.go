package gbrff

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
// "w" (d×J row-major: the J frequencies as columns), "b" (J phases), "a"
// (J amplitudes); meta "h0" (the initial score) and "rounds". The method in
// the header is the variant, "gbrff2" or "gbrff1". The frequencies are
// stored, never re-drawn from the seed.
const modelVersion = 1

// MarshalBinary encodes the model in the rfkit model file format.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.mean == nil {
		return nil, errors.New("gbrff: MarshalBinary: empty model (use Fit or Load)")
	}
	f, err := modelio.New(m.cfg.Variant, modelVersion, m.cfg, modelio.Common{Task: learners.Binary, Labels: m.labels, Inputs: len(m.mean)})
	if err != nil {
		return nil, fmt.Errorf("gbrff: %w", err)
	}
	f.Add("mean", m.mean)
	f.Add("scale", m.scale)
	f.Add("w", m.w)
	f.Add("b", m.b)
	f.Add("a", m.a)
	f.Header.Meta["h0"] = m.h0
	f.Header.Meta["rounds"] = float64(m.rounds)
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("gbrff: %w", err)
	}
	return data, nil
}

// Load decodes a GBRFF2 or GBRFF1 model written by MarshalBinary. Corrupt,
// truncated or hostile input gives an error wrapping modelfile.ErrCorrupt,
// never a panic; memory use is proportional to len(data).
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
		return errors.New("gbrff: UnmarshalBinary: the model is already in use (models are immutable; decode into a new Model)")
	}
	h, err := modelfile.ReadHeader(data)
	if err != nil {
		return fmt.Errorf("gbrff: %w", err)
	}
	if h.Method != VariantGBRFF2 && h.Method != VariantGBRFF1 {
		return fmt.Errorf("gbrff: %w: the file holds a %q model", modelfile.ErrCorrupt, h.Method)
	}
	var cfg Config
	f, com, err := modelio.Open(data, h.Method, modelVersion, &cfg)
	if err != nil {
		return fmt.Errorf("gbrff: %w", err)
	}
	if err := decode(m, f, cfg, com); err != nil {
		return fmt.Errorf("gbrff: %w: %v", modelfile.ErrCorrupt, err)
	}
	newModel(m)
	return nil
}

// decode checks the stored config and arrays and fills m.
func decode(m *Model, f *modelfile.File, cfg Config, com modelio.Common) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if !reflect.DeepEqual(cfg, cfg.resolved(max(com.Inputs, 1))) || cfg.Variant != f.Header.Method {
		return fmt.Errorf("config %+v has unresolved defaults or another variant", cfg)
	}
	if com.Task != learners.Binary {
		return fmt.Errorf("task %v, want binary", com.Task)
	}
	rf, err := f.Meta("rounds")
	if err != nil {
		return err
	}
	per := 1
	if cfg.Variant == VariantGBRFF1 {
		per = cfg.K
	}
	d := com.Inputs
	if rf != math.Trunc(rf) || rf < 0 || rf > float64(cfg.T) {
		return fmt.Errorf("rounds = %v with T = %d", rf, cfg.T)
	}
	rounds := int(rf)
	J := rounds * per
	if J > 0 && d > math.MaxInt/8/J {
		return fmt.Errorf("%d inputs × %d terms overflow", d, J)
	}
	arr := func(name string, n int) []float64 {
		var v []float64
		if err == nil {
			v, err = f.Array(name, n)
		}
		return v
	}
	mean, scale, w, b, a := arr("mean", d), arr("scale", d), arr("w", d*J), arr("b", J), arr("a", J)
	if err != nil {
		return err
	}
	for k, s := range scale {
		if !(s > 0) {
			return fmt.Errorf("scale[%d] = %v, want > 0", k, s)
		}
	}
	h0, err := f.Meta("h0")
	if err != nil {
		return err
	}
	m.cfg, m.labels, m.mean, m.scale, m.w, m.b, m.a, m.h0, m.rounds = cfg, com.Labels, mean, scale, w, b, a, h0, rounds
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
		return int64(len(data)), fmt.Errorf("gbrff: %w", err)
	}
	return int64(len(data)), m.UnmarshalBinary(data)
}
