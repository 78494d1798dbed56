package mfga

import (
	"fmt"
	"math"
	"sync"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/trig"
)

// Model is a fitted MFGA model: score(x) = bias + Σ_j coef_j·φ_{I_j}(x̃),
// x̃ = (x − mean)/scale, over the selected dictionary entries I. It is
// immutable and safe for concurrent use; Predict, Score, Probability and
// PredictBatch allocate nothing (scratch space comes from a sync.Pool).
// Obtain one from Fit or Load; a Model must not be copied.
type Model struct {
	cfg         Config // resolved: no zero defaults (Sigma included), no Progress
	labels      learners.Labels
	mean, scale []float64 // input standardisation (len d)
	index       []int     // selected dictionary entries, in selection order
	feats       []feature // decoded index
	coef        []float64 // coefficients of the raw features
	bias        float64
	path        []float64 // training risk: intercept only, then after each step

	scratch sync.Pool // of *scratch
}

// scratch is one goroutine's working space for a prediction.
type scratch struct {
	x, e []float64 // standardised input (d), the exponential's argument (1)
}

var _ learners.Model = (*Model)(nil)
var _ learners.Prober = (*Model)(nil)

// build fills m from the finished greedy state.
func (m *Model) build(g *greedy) {
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

func (m *Model) decodeFeatures() {
	m.feats = make([]feature, len(m.index))
	for t, j := range m.index {
		m.feats[t], _ = decode(j, len(m.mean), m.cfg.Degree)
	}
}

// NumInputs is d, the length of a row.
func (m *Model) NumInputs() int { return len(m.mean) }

// Task is the task the model was fitted for.
func (m *Model) Task() learners.Task { return m.cfg.Task }

// Config returns the configuration the model was fitted with, defaults
// resolved (Features, PerStep, Degree, Sigma, Lambda and Tol are never
// zero; Sigma is the value the rule of thumb gave).
func (m *Model) Config() Config { return m.cfg }

// Labels returns the original class labels of a binary model.
func (m *Model) Labels() learners.Labels { return m.labels }

// Selected returns the dictionary indices of the selected features in the
// order they were selected (a copy). Index j is, for d inputs, 0: the
// Gaussian factor; 1..d: first-degree terms; then (Degree 2) the pairs
// k ≤ l; then the d linear features (the order of featmap.Taylor with
// linear features).
func (m *Model) Selected() []int { return append([]int(nil), m.index...) }

// Coef returns the coefficients of the selected features (a copy, aligned
// with Selected) and the bias.
func (m *Model) Coef() ([]float64, float64) { return append([]float64(nil), m.coef...), m.bias }

// RiskPath returns the regularised training risk of the intercept-only
// model followed by the risk after each greedy step (a copy).
func (m *Model) RiskPath() []float64 { return append([]float64(nil), m.path...) }

// Score returns the raw score: the predicted value for regression, a
// signed margin (positive → the larger label) for binary classification.
// It panics if len(x) != NumInputs(). NaN inputs give NaN.
func (m *Model) Score(x []float64) float64 {
	if len(x) != len(m.mean) {
		panic(fmt.Sprintf("mfga: Score/Predict: len(x) = %d, the model takes %d inputs", len(x), len(m.mean)))
	}
	s := m.getScratch()
	v := m.score(s, x)
	m.scratch.Put(s)
	return v
}

// Predict returns the original class label (Binary: the larger label when
// Score(x) ≥ 0, NaN when Score is NaN) or the predicted value
// (Regression). It panics if len(x) != NumInputs().
func (m *Model) Predict(x []float64) float64 { return m.output(m.Score(x)) }

// Probability is the logistic function of the score, the model's estimate
// that x has the larger label; NaN for a regression model. It panics if
// len(x) != NumInputs().
func (m *Model) Probability(x []float64) float64 {
	s := m.Score(x)
	if m.cfg.Task != learners.Binary {
		return math.NaN()
	}
	return 1 / (1 + math.Exp(-s))
}

// PredictBatch writes Predict of every row of X into dst. It returns an
// error, and writes nothing, if X does not have NumInputs() columns or
// len(dst) != X.Rows. Rows are predicted on the calling goroutine.
func (m *Model) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := learners.CheckShape(X, len(m.mean)); err != nil {
		return fmt.Errorf("mfga: PredictBatch: %w", err)
	}
	if len(dst) != X.Rows {
		return fmt.Errorf("mfga: PredictBatch: len(dst) = %d, X has %d rows", len(dst), X.Rows)
	}
	s := m.getScratch()
	for i := range dst {
		dst[i] = m.output(m.score(s, X.Row(i)))
	}
	m.scratch.Put(s)
	return nil
}

func (m *Model) output(score float64) float64 {
	if m.cfg.Task == learners.Binary {
		return m.labels.Decode(score)
	}
	return score
}

// score standardises x exactly as Fit did and evaluates the selected
// features with the same arithmetic as the training columns.
func (m *Model) score(s *scratch, x []float64) float64 {
	xs := s.x[:len(x)]
	for k, v := range x {
		xs[k] = (v - m.mean[k]) / m.scale[k]
	}
	inv := 1 / m.cfg.Sigma
	s.e[0] = expArg(xs, inv)
	trig.Exp(s.e, s.e)
	e := s.e[0]
	v := m.bias
	for t, f := range m.feats {
		v += float64(m.coef[t] * f.value(xs, e, inv))
	}
	return v
}

func (m *Model) getScratch() *scratch {
	if s, ok := m.scratch.Get().(*scratch); ok {
		return s
	}
	return &scratch{x: make([]float64, len(m.mean)), e: make([]float64, 1)}
}
