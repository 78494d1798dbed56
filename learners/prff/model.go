package prff

import (
	"fmt"
	"math"
	"sync"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// stackInputs is the largest d whose standardised row lives on the stack.
const stackInputs = 64

// Model is a fitted PRFF model: score(x) = coef·z((x − mean)/scale) + bias,
// z the learned map. It is immutable and safe for concurrent use; Predict,
// Score, Probability and PredictBatch allocate nothing (they evaluate the
// fused epilogue featmap.RFF.CombineRow; rows of more than 64 inputs are
// standardised in scratch space from a sync.Pool). Obtain one from Fit or
// Load; a Model must not be copied.
type Model struct {
	cfg         Config // resolved: no zero defaults, no Progress
	labels      learners.Labels
	mean, scale []float64 // input standardisation (len d)
	fmap        *Map
	coef        []float64 // len D
	bias        float64

	scratch sync.Pool // of *[]float64, len d
}

var _ learners.Model = (*Model)(nil)
var _ learners.Prober = (*Model)(nil)

func newModel(m *Model) *Model {
	d := len(m.mean)
	m.scratch.New = func() any { s := make([]float64, d); return &s }
	return m
}

// NumInputs is d, the length of a row.
func (m *Model) NumInputs() int { return len(m.mean) }

// Task is the task the model was fitted for.
func (m *Model) Task() learners.Task { return m.cfg.Task }

// Config returns the configuration the model was fitted with, defaults
// resolved (Gamma and Alpha hold the values used).
func (m *Model) Config() Config { return m.cfg }

// Labels returns the original class labels of a binary model.
func (m *Model) Labels() learners.Labels { return m.labels }

// Map returns the learned feature map, which acts on standardised inputs
// (x − Mean)/Scale.
func (m *Model) Map() *Map { return m.fmap }

// Coef returns the linear model's weights (len D) and intercept; do not
// modify the slice.
func (m *Model) Coef() ([]float64, float64) { return m.coef, m.bias }

// Score returns the raw score coef·z(x) + bias: the predicted value for
// regression, a signed margin (positive → the larger label) for binary
// classification. It panics if len(x) != NumInputs(). NaN inputs give NaN.
func (m *Model) Score(x []float64) float64 {
	d := len(m.mean)
	if len(x) != d {
		panic(fmt.Sprintf("prff: Score/Predict: len(x) = %d, the model takes %d inputs", len(x), d))
	}
	if d <= stackInputs {
		var buf [stackInputs]float64
		return m.score(buf[:d], x)
	}
	p := m.scratch.Get().(*[]float64)
	v := m.score(*p, x)
	m.scratch.Put(p)
	return v
}

// score standardises x into z and evaluates the model.
func (m *Model) score(z, x []float64) float64 {
	for k, v := range x {
		z[k] = (v - m.mean[k]) / m.scale[k]
	}
	return m.fmap.rff.CombineRow(z, m.coef) + m.bias
}

// Predict returns the original class label (Binary: the larger label when
// Score(x) ≥ 0, NaN when Score is NaN) or the predicted value
// (Regression). It panics if len(x) != NumInputs().
func (m *Model) Predict(x []float64) float64 { return m.output(m.Score(x)) }

// Probability estimates the probability that x has the larger label: the
// logistic function of the score for the logistic loss, (1 + score)/2
// clamped to [0, 1] for ridge on ±1 labels. It is NaN for a regression
// model. It panics if len(x) != NumInputs().
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

// PredictBatch writes Predict of every row of X into dst, the same values
// as Predict row by row. It returns an error, and writes nothing, if X does
// not have NumInputs() columns or len(dst) != X.Rows. Rows are predicted on
// the calling goroutine.
func (m *Model) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := learners.CheckShape(X, len(m.mean)); err != nil {
		return fmt.Errorf("prff: PredictBatch: %w", err)
	}
	if len(dst) != X.Rows {
		return fmt.Errorf("prff: PredictBatch: len(dst) = %d, X has %d rows", len(dst), X.Rows)
	}
	p := m.scratch.Get().(*[]float64)
	for i := range dst {
		dst[i] = m.output(m.score(*p, X.Row(i)))
	}
	m.scratch.Put(p)
	return nil
}

func (m *Model) output(score float64) float64 {
	if m.cfg.Task == learners.Binary {
		return m.labels.Decode(score)
	}
	return score
}
