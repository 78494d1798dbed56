package pbrff

import (
	"fmt"
	"math"
	"sync"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Model is a fitted PBRFF model. On the standardised input z = (x − mean)/scale
//
//	score(x) = Σ_l c_l Σ_k q_lk cos(ω_lk·(z − l)) + c₀ = Σ_j a_j cos(ω_j·z + b_j) + c₀
//
// with j = l·K + k, a_j = c_l q_lk and b_j = −ω_lk·l, evaluated by the fused
// epilogue asm.CosSum without storing the features. A Model is immutable and
// safe for concurrent use; Predict, Score, Probability and PredictBatch
// allocate nothing. Obtain one from Fit or Load; a Model must not be copied.
type Model struct {
	cfg         Config // resolved: no zero defaults, no Progress
	labels      learners.Labels
	mean, scale []float64 // input standardisation (len d)
	landmarks   []float64 // L×d, standardised coordinates
	w           []float64 // d×J row-major: frequency j is column j
	q           []float64 // L×K pseudo-posterior weights
	coef        []float64 // L weights of the linear classifier
	bias        float64

	b, a []float64 // derived: the expansion's phases and amplitudes (len J)

	scratch sync.Pool // of *[]float64 (len d), for d > stackInputs
}

// stackInputs is the largest d whose standardised row lives on the stack.
const stackInputs = 64

var _ learners.Model = (*Model)(nil)
var _ learners.Prober = (*Model)(nil)

// NumInputs is d, the length of a row.
func (m *Model) NumInputs() int { return len(m.mean) }

// Task is always learners.Binary.
func (m *Model) Task() learners.Task { return learners.Binary }

// Config returns the configuration the model was fitted with, defaults
// resolved (Landmarks, K, Gamma, Beta, C and Loss are never zero).
func (m *Model) Config() Config { return m.cfg }

// Labels returns the original class labels.
func (m *Model) Labels() learners.Labels { return m.labels }

// Score returns the raw score Σ_l c_l φ_l(x) + c₀, a signed margin (positive
// → the larger label). It panics if len(x) != NumInputs(); NaN inputs give
// NaN.
func (m *Model) Score(x []float64) float64 {
	d := len(m.mean)
	if len(x) != d {
		panic(fmt.Sprintf("pbrff: Score/Predict: len(x) = %d, the model takes %d inputs", len(x), d))
	}
	var stack [stackInputs]float64
	var z []float64
	if d <= stackInputs {
		z = stack[:d]
	} else {
		p := m.scratch.Get().(*[]float64)
		defer m.scratch.Put(p)
		z = *p
	}
	for k, v := range x {
		z[k] = (v - m.mean[k]) / m.scale[k]
	}
	return asm.CosSum(z, m.w, len(m.b), m.b, m.a) + m.bias
}

// Predict returns the original label: the larger one when Score(x) ≥ 0, NaN
// when Score is NaN. It panics if len(x) != NumInputs().
func (m *Model) Predict(x []float64) float64 { return m.labels.Decode(m.Score(x)) }

// Probability estimates the probability that x has the larger label, where
// the loss estimates one: the logistic function of the score for Logistic,
// (1 + score)/2 clamped to [0, 1] for SquaredHinge (whose population
// minimiser is 2p − 1 on [−1, 1]). The hinge loss estimates only the sign of
// 2p − 1, so for Hinge models it is NaN; fit with another Loss for
// probabilities. It panics if len(x) != NumInputs().
func (m *Model) Probability(x []float64) float64 {
	s := m.Score(x)
	switch m.cfg.Loss {
	case Logistic:
		return 1 / (1 + math.Exp(-s))
	case SquaredHinge:
		return math.Max(0, math.Min(1, (1+s)/2))
	}
	return math.NaN()
}

// PredictBatch writes Predict of every row of X into dst. It returns an
// error wrapping featmap.ErrShape, and writes nothing, if X does not have
// NumInputs() columns, is malformed, or len(dst) != X.Rows. Rows are
// predicted on the calling goroutine.
func (m *Model) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := checkBatch(dst, X, len(m.mean)); err != nil {
		return err
	}
	for i := 0; i < X.Rows; i++ {
		dst[i] = m.Predict(X.Data[i*X.Stride : i*X.Stride+X.Cols])
	}
	return nil
}

// ScoreBatch writes Score of every row of X into dst, with PredictBatch's
// checks.
func (m *Model) ScoreBatch(dst []float64, X featmap.Matrix) error {
	if err := checkBatch(dst, X, len(m.mean)); err != nil {
		return err
	}
	for i := 0; i < X.Rows; i++ {
		dst[i] = m.Score(X.Data[i*X.Stride : i*X.Stride+X.Cols])
	}
	return nil
}

func checkBatch(dst []float64, X featmap.Matrix, d int) error {
	if X.Cols != d || X.Rows < 0 || X.Stride < X.Cols || len(dst) != X.Rows ||
		(X.Rows > 0 && (X.Stride > (math.MaxInt-X.Cols)/X.Rows || len(X.Data) < (X.Rows-1)*X.Stride+X.Cols)) {
		return fmt.Errorf("pbrff: PredictBatch: %d×%d matrix (stride %d, %d values) and %d outputs for a model of %d inputs: %w",
			X.Rows, X.Cols, X.Stride, len(X.Data), len(dst), d, featmap.ErrShape)
	}
	return nil
}

// newModel wires the scratch pool.
func newModel(m *Model) *Model {
	d := len(m.mean)
	m.scratch.New = func() any { s := make([]float64, d); return &s }
	return m
}
