package gbrff

import (
	"fmt"
	"math"
	"sync"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Model is a fitted boosting model. Both variants reduce to a cosine
// expansion on the standardised input z = (x − mean)/scale:
//
//	H(x) = H⁰ + Σ_j a_j·cos(w_j·z + b_j)
//
// (GBRFF2: one term per round, w = ω, b = −b_t, a = α_t; GBRFF1: K terms
// per round, w = ω_k, b = −ω_k·p_t, a = α_t·q_k), evaluated by the fused
// epilogue asm.CosSum without storing the features. A Model is immutable and
// safe for concurrent use; Predict, Score, Probability and PredictBatch
// allocate nothing. A Model must not be copied.
type Model struct {
	cfg         Config // resolved
	labels      learners.Labels
	mean, scale []float64 // len d
	h0          float64
	w           []float64 // d×J row-major: w[k·J + j]
	b, a        []float64 // len J
	rounds      int       // rounds kept

	scratch sync.Pool // of *[]float64, len d
}

var _ learners.Model = (*Model)(nil)
var _ learners.Prober = (*Model)(nil)

// NumInputs is d, the length of a row.
func (m *Model) NumInputs() int { return len(m.mean) }

// Task is always learners.Binary.
func (m *Model) Task() learners.Task { return learners.Binary }

// Config returns the configuration the model was fitted with, defaults
// resolved.
func (m *Model) Config() Config { return m.cfg }

// Labels returns the original class labels.
func (m *Model) Labels() learners.Labels { return m.labels }

// Rounds is the number of boosting rounds the model holds (fewer than T
// after early stopping).
func (m *Model) Rounds() int { return m.rounds }

// Score returns the raw score H(x), an estimate of half the log-odds of the
// larger label. It panics if len(x) != NumInputs(); NaN inputs give NaN.
func (m *Model) Score(x []float64) float64 {
	d := len(m.mean)
	if len(x) != d {
		panic(fmt.Sprintf("gbrff: Score/Predict: len(x) = %d, the model takes %d inputs", len(x), d))
	}
	var stack [64]float64
	var z []float64
	if d <= len(stack) {
		z = stack[:d]
	} else {
		p := m.scratch.Get().(*[]float64)
		defer m.scratch.Put(p)
		z = *p
	}
	for k, v := range x {
		z[k] = (v - m.mean[k]) / m.scale[k]
	}
	return m.h0 + asm.CosSum(z, m.w, len(m.b), m.b, m.a)
}

// Predict returns the original label: the larger one when Score(x) ≥ 0.
func (m *Model) Predict(x []float64) float64 { return m.labels.Decode(m.Score(x)) }

// Probability estimates P(larger label | x) = 1/(1 + exp(−2·Score(x))): the
// exponential loss is minimised by half the log-odds.
func (m *Model) Probability(x []float64) float64 {
	return 1 / (1 + math.Exp(-2*m.Score(x)))
}

// PredictBatch writes Predict of every row of X to dst.
func (m *Model) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := checkBatch(dst, X, len(m.mean)); err != nil {
		return err
	}
	for i := 0; i < X.Rows; i++ {
		dst[i] = m.Predict(X.Data[i*X.Stride : i*X.Stride+X.Cols])
	}
	return nil
}

// ScoreBatch writes Score of every row of X to dst.
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
		(X.Rows > 0 && len(X.Data) < (X.Rows-1)*X.Stride+X.Cols) {
		return fmt.Errorf("gbrff: PredictBatch: %d×%d matrix (stride %d, %d values) and %d outputs for a model of %d inputs: %w",
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
