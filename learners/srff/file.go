package srff

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/modelio"
)

// modelVersion is the version of the arrays below, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "eps" (d×D row-major noise ε), "b" (D phases), "gamma" (d learned
// scales), "coef" (D weights a); meta "intercept". The frequencies
// W_kj = γ_k·ε_kj are recomputed on load (one rounded product each, as in
// Fit), never re-drawn from the seed.
const modelVersion = 1

// MarshalBinary encodes the model in the rfkit model file format.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.rff == nil {
		return nil, errors.New("srff: MarshalBinary: empty model (use Fit or Load)")
	}
	f, err := modelio.New(Name, modelVersion, m.cfg, modelio.Common{Task: learners.Regression, Inputs: len(m.mean)})
	if err != nil {
		return nil, fmt.Errorf("srff: %w", err)
	}
	f.Add("mean", m.mean)
	f.Add("scale", m.scale)
	f.Add("eps", m.eps)
	f.Add("b", m.b)
	f.Add("gamma", m.gamma)
	f.Add("coef", m.coef)
	f.Header.Meta["intercept"] = m.intercept
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("srff: %w", err)
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
	if m.rff != nil {
		return errors.New("srff: UnmarshalBinary: the model is already in use (models are immutable; decode into a new Model)")
	}
	var cfg Config
	f, com, err := modelio.Open(data, Name, modelVersion, &cfg)
	if err != nil {
		return fmt.Errorf("srff: %w", err)
	}
	if err := decode(m, f, cfg, com); err != nil {
		return fmt.Errorf("srff: %w: %v", modelfile.ErrCorrupt, err)
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
	case cfg.Features == 0 || cfg.Simplex == 0 || cfg.Lambda == 0 || cfg.Lambdas == 0 || cfg.LambdaMin == 0 ||
		cfg.LambdaMax == 0 || cfg.Validation == 0 || cfg.MaxIterations == 0 || cfg.GammaIterations == 0 || cfg.Tol == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != learners.Regression || com.Task != learners.Regression:
		return fmt.Errorf("config task %v, header task %v: want regression", cfg.Task, com.Task)
	case d <= 0 || d > math.MaxInt/D:
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
	mean, scale, eps, b := arr("mean", d), arr("scale", d), arr("eps", d*D), arr("b", D)
	gamma, coef := arr("gamma", d), arr("coef", D)
	if err != nil {
		return err
	}
	for k, s := range scale {
		if !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("scale[%d] = %v, want a finite value > 0", k, s)
		}
	}
	for k, g := range gamma {
		if !(g >= 0) || math.IsInf(g, 0) {
			return fmt.Errorf("gamma[%d] = %v, want a finite value ≥ 0", k, g)
		}
	}
	for _, v := range [][]float64{mean, eps, b, coef} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("non-finite value %v in the model arrays", x)
			}
		}
	}
	intercept, err := f.Meta("intercept")
	if err != nil {
		return err
	}
	if math.IsNaN(intercept) || math.IsInf(intercept, 0) {
		return fmt.Errorf("intercept = %v, want a finite value", intercept)
	}
	mm, err := newModel(cfg, mean, scale, eps, b, gamma, coef, intercept)
	if err != nil {
		return err
	}
	m.cfg, m.mean, m.scale, m.eps, m.b, m.gamma, m.rff, m.coef, m.intercept =
		mm.cfg, mm.mean, mm.scale, mm.eps, mm.b, mm.gamma, mm.rff, mm.coef, mm.intercept
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
		return int64(len(data)), fmt.Errorf("srff: %w", err)
	}
	return int64(len(data)), m.UnmarshalBinary(data)
}
