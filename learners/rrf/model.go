package rrf

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "e" (d×D noise, row-major), "loggamma" (d log-widths γ̃), "w" (C×2D
// weights: per class the cos part then the sin part), "b" (C biases), and
// "classes" (the sorted labels; multiclass only). C is the number of
// classes for multiclass, else 1. The config holds the resolved defaults;
// the noise is stored, never re-drawn from the seed. These are the whole
// state of a Learner (Update draws no randomness), so Resume needs no
// more; the config's Shuffle and Standardize appear only when not Default,
// so files written before they existed keep their bytes, and older builds
// ignore them.
//
// Version 2: models of the Multiclass task (header task "multiclass",
// labels the classes; the arrays as version 1). Other models are still
// written as version 1.
const modelVersion = 2

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted (or snapshotted) RRF model: scores
// f_c(x) = w_cᵀφ((x − mean)/scale) + b_c, with Classes and Importance
// beside the methods every model has. Probability is, for a binary
// model, the logistic function of the score for the logistic loss and
// (1 + score)/2 clamped to [0, 1] for the hinge loss (a crude estimate).
// Training on NaN is an error. Obtain one from Fit, Learner.Snapshot or
// Load; Resume (or Fit with Config.Resume) continues learning from one.
// It is immutable and safe for concurrent use; Predict and Score allocate
// nothing; a NaN input is a missing value (see Predict); a Model must not
// be copied.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Classes returns a copy of the sorted class labels (nil for regression).
func (m *Model) Classes() []float64 { return slices.Clone(m.Body().classes) }

// Importance returns the learned widths e^{γ̃_j}, one per input (a copy):
// larger means the input varies the function faster, i.e. matters more.
func (m *Model) Importance() []float64 { return slices.Clone(m.Body().p.sc) }

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	cfg     Config // resolved; Classes sorted (empty for regression)
	classes []float64
	p       *params
}

// newModel wraps a snapshot of the learner's state with the
// standardisation mean, scale.
func newModel(cfg Config, classes []float64, p *params, mean, scale []float64) *Model {
	b := &body{cfg: cfg, classes: classes, p: p}
	b.cfg.Classes = classes
	return kit.New[Model](b.common(mean, scale), b)
}

func (b *body) common(mean, scale []float64) learners.Common {
	c := learners.Common{Task: b.cfg.Task, Mean: mean, Scale: scale}
	if b.p.C > 1 {
		c.Classes = b.classes
	}
	if b.cfg.Task == learners.Binary {
		c.Labels = learners.Labels{Neg: b.classes[0], Pos: b.classes[len(b.classes)-1]}
		if b.p.C == 1 {
			c.Link = kit.Clamped
			if b.cfg.Loss == Logistic {
				c.Link = kit.Logistic
			}
		}
	}
	return c
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: Name, Methods: []string{Name}, Version: modelVersion}
}

func (b *body) NewWork() any { return b.p.newWork() }

// Score is the raw score of a binary or regression model, the margin of
// the best class over the runner-up for a multiclass one.
func (b *body) Score(z []float64, w any) float64 {
	s := w.(*work)
	b.p.features(s, z)
	b.p.scores(s)
	v := s.f[0]
	if b.p.C > 1 {
		c := vec.Argmax(s.f, -1)
		v = s.f[c] - s.f[vec.Argmax(s.f, c)]
	}
	return v
}

// Scores writes the C class scores of the standardised row z of a
// multiclass model (kit.MultiScorer: its Probabilities are their
// softmax).
func (b *body) Scores(dst, z []float64, w any) {
	s := w.(*work)
	b.p.features(s, z)
	b.p.scores(s)
	copy(dst, s.f[:b.p.C])
}

// FileVersion: 2 for a model of the Multiclass task, else 1 (the older
// spelling, Binary with three or more classes, included).
func (b *body) FileVersion() int {
	if b.cfg.Task == learners.Multiclass {
		return 2
	}
	return 1
}

// Predict is the label (or value) of the standardised row z.
func (b *body) Predict(z []float64, w any) float64 {
	s := w.(*work)
	b.p.features(s, z)
	b.p.scores(s)
	return output(b.p, b.classes, b.cfg.Task, s.f)
}

func (b *body) Configuration() kit.Validator { return &b.cfg }

func (b *body) Encode(e *kit.Encoder) error {
	e.Array("e", b.p.e)
	e.Array("loggamma", b.p.lg)
	e.Array("w", b.p.w)
	e.Array("b", b.p.b)
	if b.p.C > 1 {
		e.Array("classes", b.classes)
	}
	return nil
}

func (b *body) Decode(dec *kit.Decoder) error {
	cfg := b.cfg
	d, D := dec.Inputs, cfg.Features
	switch {
	case cfg.Features == 0 || cfg.Lambda == 0 || cfg.Eta == 0 || cfg.EtaGamma == 0 || cfg.Width == 0 ||
		cfg.Loss == "" || cfg.Epochs == 0 || cfg.BatchSize == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != dec.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, dec.Task)
	case d > math.MaxInt/D/2:
		return fmt.Errorf("%d inputs × %d features overflow", d, D)
	case cfg.Task == learners.Binary && len(cfg.Classes) < 2:
		return fmt.Errorf("classification config with %d classes", len(cfg.Classes))
	case cfg.Task == learners.Multiclass && !slices.Equal(cfg.Classes, dec.Classes):
		return fmt.Errorf("config classes %v disagree with the header's %v", cfg.Classes, dec.Classes)
	case cfg.Task == learners.Multiclass && dec.Version < 2:
		return fmt.Errorf("a multiclass model of version %d (multiclass models are version 2)", dec.Version)
	case !slices.IsSorted(cfg.Classes):
		return errors.New("config classes are not sorted")
	}
	C := 1
	if len(cfg.Classes) > 2 {
		C = len(cfg.Classes)
	}
	if cfg.Task == learners.Binary && (cfg.Classes[0] != dec.Labels.Neg || cfg.Classes[len(cfg.Classes)-1] != dec.Labels.Pos) {
		return fmt.Errorf("config classes %v disagree with header labels %v", cfg.Classes, dec.Labels)
	}
	if C > 1 && 2*D > math.MaxInt/C/max(d, 1) {
		return errors.New("too many classes")
	}
	e, lg, w, bias := dec.Array("e", d*D), dec.Array("loggamma", d), dec.Array("w", C*2*D), dec.Array("b", C)
	if C > 1 {
		if cl := dec.Array("classes", C); dec.Err() == nil && !slices.Equal(cl, cfg.Classes) {
			return errors.New("classes array disagrees with the config")
		}
	}
	if err := dec.Err(); err != nil {
		return err
	}
	for j, v := range lg {
		if !(math.Abs(v) <= maxLogWidth) {
			return fmt.Errorf("loggamma[%d] = %v, want |γ̃| ≤ %v", j, v, maxLogWidth)
		}
	}
	p := &params{d: d, D: D, C: C, loss: cfg.Loss, e: e, lg: lg, sc: make([]float64, d), w: w, b: bias}
	p.finish()
	*b = body{cfg: cfg, classes: cfg.Classes, p: p}
	c := b.common(nil, nil)
	dec.Link, dec.Classes = c.Link, c.Classes
	return nil
}

func init() {
	kit.Define(Name, "reparameterised random features: online SGD on the weights and per-input kernel widths (Nguyen et al. 2017)", []learners.Task{learners.Binary, learners.Multiclass, learners.Regression},
		func() *Config { return new(Config) }, Fit, Load)
}

// Average returns the model whose log-widths, weights and biases are the
// means of those of models, summed in argument order and divided by their
// number (one model is returned with its own bits): the mixing step of
// iterative parameter mixing, where shards run SGD from a common model and
// their results are averaged. The models must share their inputs, task,
// classes, loss, noise and standardisation (Snapshots of Learners resumed
// from one model do); the result has the first model's configuration.
func Average(models ...*Model) (*Model, error) {
	if len(models) == 0 {
		return nil, errors.New("rrf: Average: no models")
	}
	for i, m := range models {
		if m == nil || m.Body() == nil {
			return nil, fmt.Errorf("rrf: Average: model %d is empty", i)
		}
	}
	m0, b0 := models[0], models[0].Body()
	mean0, scale0 := m0.Standardization()
	p := b0.p.clone()
	for i, m := range models[1:] {
		b := m.Body()
		mean, scale := m.Standardization()
		switch {
		case m.NumInputs() != m0.NumInputs() || b.p.D != p.D || b.p.C != p.C || b.cfg.Task != b0.cfg.Task || b.cfg.Loss != b0.cfg.Loss:
			return nil, fmt.Errorf("rrf: Average: model %d has another shape, task or loss than model 0", i+1)
		case !slices.Equal(b.classes, b0.classes):
			return nil, fmt.Errorf("rrf: Average: model %d has classes %v, model 0 %v", i+1, b.classes, b0.classes)
		case !slices.Equal(b.p.e, p.e):
			return nil, fmt.Errorf("rrf: Average: model %d has other random frequencies than model 0", i+1)
		case !slices.Equal(mean, mean0) || !slices.Equal(scale, scale0):
			return nil, fmt.Errorf("rrf: Average: model %d has another standardisation than model 0", i+1)
		}
		addTo(p.lg, b.p.lg)
		addTo(p.w, b.p.w)
		addTo(p.b, b.p.b)
	}
	if n := float64(len(models)); n > 1 {
		for _, v := range [][]float64{p.lg, p.w, p.b} {
			for k := range v {
				v[k] /= n
			}
		}
		p.exp()
	}
	return newModel(b0.cfg, slices.Clone(b0.classes), p, mean0, scale0), nil
}

// addTo adds src to dst element-wise.
func addTo(dst, src []float64) {
	for k := range dst {
		dst[k] += src[k]
	}
}
