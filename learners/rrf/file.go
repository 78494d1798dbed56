package rrf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/modelio"
)

// modelVersion is the version of the arrays below, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "e" (d×D noise, row-major), "loggamma" (d log-widths γ̃), "w" (C×2D
// weights: per class the cos part then the sin part), "b" (C biases), and
// "classes" (the sorted labels; multiclass only). C is the number of
// classes for multiclass, else 1. The config holds the resolved defaults;
// the noise is stored, never re-drawn from the seed.
const modelVersion = 1

// MarshalBinary encodes the model in the rfkit model file format.
func (m *Model) MarshalBinary() ([]byte, error) {
	if m.p == nil {
		return nil, errors.New("rrf: MarshalBinary: empty model (use Fit, Snapshot or Load)")
	}
	f, err := modelio.New(Name, modelVersion, m.cfg, modelio.Common{Task: m.cfg.Task, Labels: m.labels, Inputs: m.p.d})
	if err != nil {
		return nil, fmt.Errorf("rrf: %w", err)
	}
	f.Add("mean", m.mean)
	f.Add("scale", m.scale)
	f.Add("e", m.p.e)
	f.Add("loggamma", m.p.lg)
	f.Add("w", m.p.w)
	f.Add("b", m.p.b)
	if m.p.C > 1 {
		f.Add("classes", m.classes)
	}
	data, err := f.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("rrf: %w", err)
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
	if m.p != nil {
		return errors.New("rrf: UnmarshalBinary: the model is already in use (models are immutable; decode into a new Model)")
	}
	var cfg Config
	f, com, err := modelio.Open(data, Name, modelVersion, &cfg)
	if err != nil {
		return fmt.Errorf("rrf: %w", err)
	}
	if err := decode(m, f, cfg, com); err != nil {
		return fmt.Errorf("rrf: %w: %v", modelfile.ErrCorrupt, err)
	}
	return nil
}

func decode(m *Model, f *modelfile.File, cfg Config, com modelio.Common) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	d, D := com.Inputs, cfg.Features
	switch {
	case cfg.Features == 0 || cfg.Lambda == 0 || cfg.Eta == 0 || cfg.EtaGamma == 0 || cfg.Width == 0 ||
		cfg.Loss == "" || cfg.Epochs == 0 || cfg.BatchSize == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != com.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, com.Task)
	case d > math.MaxInt/D/2:
		return fmt.Errorf("%d inputs × %d features overflow", d, D)
	case cfg.Task == learners.Binary && len(cfg.Classes) < 2:
		return fmt.Errorf("classification config with %d classes", len(cfg.Classes))
	case !slices.IsSorted(cfg.Classes):
		return errors.New("config classes are not sorted")
	}
	C := 1
	if len(cfg.Classes) > 2 {
		C = len(cfg.Classes)
	}
	if cfg.Task == learners.Binary && (cfg.Classes[0] != com.Labels.Neg || cfg.Classes[len(cfg.Classes)-1] != com.Labels.Pos) {
		return fmt.Errorf("config classes %v disagree with header labels %v", cfg.Classes, com.Labels)
	}
	if C > 1 && 2*D > math.MaxInt/C/max(d, 1) {
		return errors.New("too many classes")
	}
	var err error
	arr := func(name string, n int) []float64 {
		var v []float64
		if err == nil {
			v, err = f.Array(name, n)
		}
		return v
	}
	mean, scale, e, lg, w, b := arr("mean", d), arr("scale", d), arr("e", d*D), arr("loggamma", d), arr("w", C*2*D), arr("b", C)
	if C > 1 {
		cl := arr("classes", C)
		if err == nil && !slices.Equal(cl, cfg.Classes) {
			return errors.New("classes array disagrees with the config")
		}
	}
	if err != nil {
		return err
	}
	for k, s := range scale {
		if !(s > 0) || !finite(s) || !finite(mean[k]) {
			return fmt.Errorf("mean[%d], scale[%d] = %v, %v: want finite, scale > 0", k, k, mean[k], s)
		}
	}
	for _, a := range [][]float64{e, w, b} {
		for _, v := range a {
			if !finite(v) {
				return fmt.Errorf("non-finite parameter %v", v)
			}
		}
	}
	for j, v := range lg {
		if !(math.Abs(v) <= MaxLogWidth) {
			return fmt.Errorf("loggamma[%d] = %v, want |γ̃| ≤ %v", j, v, MaxLogWidth)
		}
	}
	p := &params{d: d, D: D, C: C, loss: cfg.Loss, e: e, lg: lg, sc: make([]float64, d), w: w, b: b}
	p.finish()
	m.cfg, m.classes, m.mean, m.scale, m.p = cfg, cfg.Classes, mean, scale, p
	m.setLabels()
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
		return int64(len(data)), fmt.Errorf("rrf: %w", err)
	}
	return int64(len(data)), m.UnmarshalBinary(data)
}
