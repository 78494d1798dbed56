package mfga

import (
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/vec"
	"github.com/rfkit/rfkit/trig"
)

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "index" (k dictionary indices, as exact integers), "coef" (k
// coefficients of the raw features), "risk" (the training risk path);
// meta "bias", "selected" (k). σ is in the config.
//
// Version 2 (multiclass models; the others are still written as version
// 1): "coef" holds K×k coefficients (class-major) and the array "biases"
// the K biases instead of the meta "bias"; the header task is
// "multiclass" and its labels the K classes.
const modelVersion = 2

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted MFGA model: score(x) = bias + Σ_j coef_j·φ_{I_j}(x̃),
// x̃ = (x − mean)/scale, over the selected dictionary entries I. It
// is immutable and safe for
// concurrent use; Predict, Score, Probability and their batch forms
// allocate nothing. Probability is the logistic function of the score (the
// binary loss is logistic). Obtain one from Fit or Load; a Model must not
// be copied.
// Config returns the configuration it was fitted with, defaults resolved:
// Features, PerStep, Degree, Sigma, Lambda and Tol are never zero; Sigma is
// the value the rule of thumb gave.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Selected returns the dictionary indices of the selected features in the
// order they were selected (a copy). Index j is, for d inputs, 0: the
// Gaussian factor; 1..d: first-degree terms; then (Degree 2) the pairs
// k ≤ l; then the d linear features (the order of the package
// documentation's Dictionary).
func (m *Model) Selected() []int { return slices.Clone(m.Body().index) }

// Coef returns the coefficients of the selected features (a copy, aligned
// with Selected) and the bias.
func (m *Model) Coef() ([]float64, float64) { return slices.Clone(m.Body().coef), m.Body().bias }

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	cfg   Config    // resolved: no zero defaults (Sigma included), no Progress
	d     int       // inputs
	index []int     // selected dictionary entries, in selection order
	feats []feature // decoded index
	coef  []float64 // coefficients of the raw features
	bias  float64
	// A multiclass model has K rows of coefficients (K×k) and K biases
	// instead of coef and bias.
	coefs, biases []float64
	path          []float64 // training risk: intercept only, then after each step
}

// build fills m from the finished greedy state.
func (m *body) build(g *greedy) {
	k := len(g.active)
	m.index = append([]int(nil), g.active...)
	m.coef = make([]float64, k)
	m.bias = g.bias
	for t, j := range g.active {
		m.coef[t] = g.w[t] / g.s[j]
		m.bias -= float64(m.coef[t] * g.mu[j])
	}
	m.path = g.path
	m.decodeFeatures()
}

func (m *body) decodeFeatures() {
	m.feats = make([]feature, len(m.index))
	for t, j := range m.index {
		m.feats[t], _ = decode(j, m.d, m.cfg.Degree)
	}
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: methodName, Methods: []string{methodName}, Version: modelVersion}
}

// NewWork is the argument of the one exponential a row needs (trig.Exp
// works on slices).
func (m *body) NewWork() any {
	if m.biases != nil { // the exponential, the k feature values, K scores
		return make([]float64, 1+len(m.feats)+len(m.biases))
	}
	return make([]float64, 1)
}

// Score evaluates the selected features of the standardised row z with
// the same arithmetic as the training columns.
func (m *body) Score(z []float64, w any) float64 {
	e := w.([]float64)
	if m.biases != nil { // the margin of the best class over the runner-up
		s := e[1+len(m.feats):]
		m.Scores(s, z, w)
		return vec.Margin(s)
	}
	inv := 1 / m.cfg.Sigma
	e[0] = expArg(z, inv)
	trig.Exp(e, e)
	v := m.bias
	for t, f := range m.feats {
		v += float64(m.coef[t] * f.value(z, e[0], inv))
	}
	return v
}

func (m *body) Configuration() kit.Validator { return &m.cfg }

func (m *body) Encode(e *kit.Encoder) error {
	idx := make([]float64, len(m.index))
	for t, j := range m.index {
		idx[t] = float64(j)
	}
	e.Array("index", idx)
	if m.biases != nil {
		e.Array("coef", m.coefs)
		e.Array("risk", m.path)
		e.Array("biases", m.biases)
	} else {
		e.Array("coef", m.coef)
		e.Array("risk", m.path)
		e.Meta("bias", m.bias)
	}
	e.Meta("selected", float64(len(m.index)))
	return nil
}

func (m *body) Decode(dec *kit.Decoder) error {
	cfg := m.cfg
	d := dec.Inputs
	switch {
	case cfg.Features == 0 || cfg.PerStep == 0 || cfg.Degree == 0 || cfg.Sigma == 0 || cfg.Lambda == 0 || cfg.Tol == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != dec.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, dec.Task)
	}
	m0 := candidates(d, cfg.Degree)
	if m0 < 0 {
		return fmt.Errorf("%d inputs give too many degree-%d candidates", d, cfg.Degree)
	}
	sel := dec.Meta("selected")
	if err := dec.Err(); err != nil {
		return err
	}
	if !(sel >= 0 && sel <= float64(min(cfg.Features, m0))) || sel != math.Trunc(sel) {
		return fmt.Errorf("selected = %v, want an integer in 0..%d", sel, min(cfg.Features, m0))
	}
	k := int(sel)
	K := len(dec.Classes)
	var idx, coef, risk, biases []float64
	var bias float64
	if K > 0 {
		if dec.Version < 2 {
			return fmt.Errorf("a multiclass model of version %d (multiclass models are version 2)", dec.Version)
		}
		idx, coef, risk, biases = dec.Array("index", k), dec.Array("coef", K*k), dec.Array("risk", -1), dec.Array("biases", K)
	} else {
		idx, coef, risk, bias = dec.Array("index", k), dec.Array("coef", k), dec.Array("risk", -1), dec.Meta("bias")
	}
	if err := dec.Err(); err != nil {
		return err
	}
	if len(risk) < 1 || len(risk) > k+1 {
		return fmt.Errorf("risk path has %d values, want 1..%d", len(risk), k+1)
	}
	index := make([]int, k)
	for t, v := range idx {
		if !(v >= 0 && v < float64(m0)) || v != math.Trunc(v) {
			return fmt.Errorf("index[%d] = %v, want an integer in 0..%d", t, v, m0-1)
		}
		index[t] = int(v)
	}
	m.cfg, m.d, m.index, m.coef, m.bias, m.path = cfg, d, index, coef, bias, risk
	if K > 0 {
		m.coef, m.coefs, m.biases = nil, coef, biases
	}
	m.decodeFeatures()
	dec.Link = kit.Logistic
	return nil
}

func init() {
	kit.DefineWeighted(methodName, "MFGA: greedy selection of explicit Taylor features of the Gaussian kernel plus linear features (logistic or squared loss)", []learners.Task{learners.Binary, learners.Multiclass, learners.Regression},
		func() *Config { return new(Config) }, Fit, FitWeighted, Load)
}
