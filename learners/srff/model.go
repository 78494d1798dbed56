package srff

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
)

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "eps" (d×D row-major noise ε), "b" (D phases), "gamma" (d learned
// scales), "coef" (D weights a); meta "intercept". The frequencies
// W_kj = γ_k·ε_kj are recomputed on load (one rounded product each, as in
// Fit), never re-drawn from the seed.
const modelVersion = 1

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted SRFF model: f(x) = intercept + coef·z((x − mean)/scale)
// with z(x) = √(2/D)·cos(ε(γ⊙x) + b). Its Task is always
// Regression and its Probability NaN; it is
// immutable and safe for concurrent use; Predict, Score and PredictBatch
// allocate nothing. Obtain one from Fit or Load; a Model must not be
// copied.
// Config returns the configuration it was fitted with, defaults resolved:
// Simplex is the size s used and Lambda the λ chosen.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Importance returns a copy of the learned scales γ, one per input (on
// standardised inputs; Σγ = Config().Simplex). An input with γ = 0 does
// not affect the predictions at all; larger γ means the target varies
// faster along that input.
func (m *Model) Importance() []float64 { return slices.Clone(m.Body().gamma) }

// Ranked returns the inputs (0-based) by decreasing γ, ties by index.
func (m *Model) Ranked() []int {
	gamma := m.Body().gamma
	idx := make([]int, len(gamma))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(p, q int) int { return cmp.Compare(gamma[q], gamma[p]) })
	return idx
}

// SearchPoint is one λ of Fit's validation search.
type SearchPoint struct {
	Lambda float64 // the grid value (per row, on the training part)
	RMSE   float64 // the validation RMSE of the fit at Lambda
}

// Search returns a copy of the validation search of the Fit that made m, in
// grid order (largest λ first): nil if Config.Lambda was given or m was
// loaded from a file (the search is not stored in model files).
func (m *Model) Search() []SearchPoint { return slices.Clone(m.Body().search) }

// SimplexPoint is one simplex size of the default fit's search.
type SimplexPoint struct {
	Factor  float64 // of the default d/σ: 1, 1/2 or 1/4
	Simplex float64 // the simplex size s = Factor·d/σ
	RMSE    float64 // the best validation RMSE of its λ search
}

// SimplexSearch returns a copy of the simplex-size search of the Fit that
// made m, in factor order (1, 1/2, 1/4): nil when no search ran
// (Simplex or Lambda given, Search disabled) or m was loaded from a file.
func (m *Model) SimplexSearch() []SimplexPoint { return slices.Clone(m.Body().simplexes) }

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	cfg       Config    // resolved: no zero defaults, no Progress
	eps, b    []float64 // ε (d×D row-major), phases (D)
	gamma     []float64 // learned scales (d)
	rff       *featmap.RFF
	coef      []float64 // a (D)
	intercept float64
	search    []SearchPoint  // Fit's validation search (not stored in files)
	simplexes []SimplexPoint // Fit's simplex search (not stored in files)
}

// newModel assembles a model; the slices are kept.
func newModel(c Config, mean, scale, eps, b, gamma, coef []float64, intercept float64) (*Model, error) {
	rff, err := scaledMap(eps, b, gamma, len(mean), len(coef))
	if err != nil {
		return nil, err
	}
	return kit.New[Model](learners.Common{Task: learners.Regression, Mean: mean, Scale: scale},
		&body{cfg: c, eps: eps, b: b, gamma: gamma, rff: rff, coef: coef, intercept: intercept}), nil
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: methodName, Methods: []string{methodName}, Version: modelVersion}
}

// NewWork is the feature vector (D).
func (m *body) NewWork() any { return make([]float64, len(m.coef)) }

// Score maps the standardised row and reads the features out in index
// order with FMAs (xmath.Dot), the arithmetic the model files were fixed
// with.
func (m *body) Score(z []float64, w any) float64 {
	f := w.([]float64)
	m.rff.TransformRow(f, z)
	return xmath.Dot(m.coef, f) + m.intercept
}

func (m *body) Configuration() kit.Validator { return &m.cfg }

func (m *body) Encode(e *kit.Encoder) error {
	e.Array("eps", m.eps)
	e.Array("b", m.b)
	e.Array("gamma", m.gamma)
	e.Array("coef", m.coef)
	e.Meta("intercept", m.intercept)
	return nil
}

func (m *body) Decode(dec *kit.Decoder) error {
	cfg := m.cfg
	d, D := dec.Inputs, cfg.Features
	switch {
	case cfg.Features == 0 || cfg.Simplex == 0 || cfg.Lambda == 0 || cfg.Lambdas == 0 || cfg.LambdaMin == 0 ||
		cfg.LambdaMax == 0 || cfg.Validation == 0 || cfg.MaxIterations == 0 || cfg.GammaIterations == 0 || cfg.Tol == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != learners.Regression || dec.Task != learners.Regression:
		return fmt.Errorf("config task %v, header task %v: want regression", cfg.Task, dec.Task)
	case d > math.MaxInt/D:
		return fmt.Errorf("%d inputs × %d features overflow", d, D)
	}
	eps, b, gamma, coef, intercept := dec.Array("eps", d*D), dec.Array("b", D), dec.Array("gamma", d), dec.Array("coef", D), dec.Meta("intercept")
	if err := dec.Err(); err != nil {
		return err
	}
	for k, g := range gamma {
		if !(g >= 0) {
			return fmt.Errorf("gamma[%d] = %v, want a finite value ≥ 0", k, g)
		}
	}
	rff, err := scaledMap(eps, b, gamma, d, D)
	if err != nil {
		return err
	}
	*m = body{cfg: cfg, eps: eps, b: b, gamma: gamma, rff: rff, coef: coef, intercept: intercept}
	return nil
}

func init() {
	kit.DefineWeighted(methodName, "Sparse random Fourier features: ridge regression with per-input scales γ learned on a simplex (variable selection)", []learners.Task{learners.Regression},
		func() *Config { return new(Config) }, Fit, FitWeighted, Load)
}
