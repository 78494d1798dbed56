package rfselect

import (
	"fmt"
	"math"
	"sync"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Model is a fitted EERF or LKRF model: score(x) = coef·z((x − mean)/scale) + bias.
// It is immutable and safe for concurrent use; Predict, Score, Probability
// and PredictBatch allocate nothing (scratch space comes from a sync.Pool).
// Obtain one from Fit or Load; a Model must not be copied.
type Model struct {
	cfg         Config // resolved: no zero defaults, no Progress
	labels      learners.Labels
	mean, scale []float64 // input standardisation (len d)
	rff         *featmap.RFF
	coef        []float64 // len D
	bias        float64

	scratch sync.Pool // of *scratch
}

// scratch is one goroutine's working space for a prediction.
type scratch struct {
	x, z []float64 // standardised input (d), features (D)
}

var _ learners.Model = (*Model)(nil)
var _ learners.Prober = (*Model)(nil)

// NumInputs is d, the length of a row.
func (m *Model) NumInputs() int { return len(m.mean) }

// Task is the task the model was fitted for.
func (m *Model) Task() learners.Task { return m.cfg.Task }

// Config returns the configuration the model was fitted with, defaults
// resolved (Selection, Features, Candidates, Gamma, Rho, Lambda and Loss are never zero).
func (m *Model) Config() Config { return m.cfg }

// Labels returns the original class labels of a binary model.
func (m *Model) Labels() learners.Labels { return m.labels }

// Score returns the raw score coef·z(x) + bias: the predicted value for
// regression, a signed margin (positive → the larger label) for binary
// classification. It panics if len(x) != NumInputs(). NaN inputs give NaN.
func (m *Model) Score(x []float64) float64 {
	if len(x) != len(m.mean) {
		panic(fmt.Sprintf("rfselect: Score/Predict: len(x) = %d, the model takes %d inputs", len(x), len(m.mean)))
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

// Probability estimates the probability that x has the larger label: the
// logistic function of the score for the logistic loss, (1 + score)/2
// clamped to [0, 1] for ridge on ±1 labels (least squares estimates
// E[y|x] = 2p − 1). It is NaN for a regression model. It panics if
// len(x) != NumInputs().
func (m *Model) Probability(x []float64) float64 {
	s := m.Score(x)
	switch {
	case m.cfg.Task != learners.Binary:
		return math.NaN()
	case m.cfg.Loss == Logistic:
		return 1 / (1 + math.Exp(-s))
	}
	return math.Max(0, math.Min(1, (1+s)/2))
}

// PredictBatch writes Predict of every row of X into dst. It returns an
// error, and writes nothing, if X does not have NumInputs() columns or
// len(dst) != X.Rows. Rows are predicted on the calling goroutine.
func (m *Model) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := learners.CheckShape(X, len(m.mean)); err != nil {
		return fmt.Errorf("rfselect: PredictBatch: %w", err)
	}
	if len(dst) != X.Rows {
		return fmt.Errorf("rfselect: PredictBatch: len(dst) = %d, X has %d rows", len(dst), X.Rows)
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

// score standardises x exactly as Fit did (dataset.Scaler.Transform) and
// evaluates the linear model on its features.
func (m *Model) score(s *scratch, x []float64) float64 {
	xs := s.x[:len(x)]
	for k, v := range x {
		xs[k] = (v - m.mean[k]) / m.scale[k]
	}
	m.rff.TransformRow(s.z, xs)
	return dot(m.coef, s.z) + m.bias
}

func (m *Model) getScratch() *scratch {
	if s, ok := m.scratch.Get().(*scratch); ok {
		return s
	}
	return &scratch{x: make([]float64, len(m.mean)), z: make([]float64, len(m.coef))}
}
