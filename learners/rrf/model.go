package rrf

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
)

// Model is a fitted (or snapshotted) RRF model: scores
// f_c(x) = w_cᵀφ((x − mean)/scale) + b_c. It is immutable and safe for
// concurrent use; Predict, Score, Scores, Probability and PredictBatch
// allocate nothing (scratch space comes from a sync.Pool). Obtain one from
// Fit, Learner.Snapshot or Load; a Model must not be copied.
type Model struct {
	cfg         Config // resolved; Classes sorted (empty for regression)
	classes     []float64
	labels      learners.Labels
	mean, scale []float64
	p           *params

	scratch sync.Pool // of *modelScratch
}

type modelScratch struct {
	xs []float64
	w  *work
}

var _ learners.Model = (*Model)(nil)
var _ learners.Prober = (*Model)(nil)

func (m *Model) setLabels() {
	if m.cfg.Task == learners.Binary {
		m.labels = learners.Labels{Neg: m.classes[0], Pos: m.classes[len(m.classes)-1]}
	}
}

// NumInputs is d, the length of a row.
func (m *Model) NumInputs() int { return m.p.d }

// Task is learners.Binary for classification (also multiclass) or
// learners.Regression.
func (m *Model) Task() learners.Task { return m.cfg.Task }

// Config returns the resolved configuration the model was built with.
func (m *Model) Config() Config { return m.cfg }

// Labels returns the smallest and largest class label of a classification
// model (the two labels of a binary one).
func (m *Model) Labels() learners.Labels { return m.labels }

// Classes returns a copy of the sorted class labels (nil for regression).
func (m *Model) Classes() []float64 { return slices.Clone(m.classes) }

// NumClasses is the number of classes (0 for regression).
func (m *Model) NumClasses() int { return len(m.classes) }

// Importance returns the learned widths e^{γ̃_j}, one per input (a copy):
// larger means the input varies the function faster, i.e. matters more.
func (m *Model) Importance() []float64 { return slices.Clone(m.p.sc) }

// LogWidths returns a copy of γ̃.
func (m *Model) LogWidths() []float64 { return slices.Clone(m.p.lg) }

func (m *Model) get() *modelScratch {
	if s, ok := m.scratch.Get().(*modelScratch); ok {
		return s
	}
	return &modelScratch{xs: make([]float64, m.p.d), w: m.p.newWork()}
}

func (m *Model) check(x []float64) {
	if len(x) != m.p.d {
		panic(fmt.Sprintf("rrf: Score/Predict: len(x) = %d, the model takes %d inputs", len(x), m.p.d))
	}
}

// eval standardises x and computes the scores into s.w.f.
func (m *Model) eval(s *modelScratch, x []float64) {
	xs := s.xs[:len(x)]
	for k, v := range x {
		xs[k] = (v - m.mean[k]) / m.scale[k]
	}
	m.p.features(s.w, xs)
	m.p.scores(s.w)
}

// Score returns the raw score of a binary or regression model (the value,
// or a margin: positive → the larger label); for a multiclass model it is
// the margin of the best class over the runner-up. It panics if
// len(x) != NumInputs().
func (m *Model) Score(x []float64) float64 {
	m.check(x)
	s := m.get()
	m.eval(s, x)
	v := s.w.f[0]
	if m.p.C > 1 {
		b := argmax(s.w.f, -1)
		v = s.w.f[b] - s.w.f[argmax(s.w.f, b)]
	}
	m.scratch.Put(s)
	return v
}

// Scores writes the C per-class scores of a multiclass model into dst
// (len NumClasses(); one score for binary or regression, len 1). It panics
// on wrong lengths.
func (m *Model) Scores(dst, x []float64) {
	m.check(x)
	if len(dst) != m.p.C {
		panic(fmt.Sprintf("rrf: Scores: len(dst) = %d, want %d", len(dst), m.p.C))
	}
	s := m.get()
	m.eval(s, x)
	copy(dst, s.w.f)
	m.scratch.Put(s)
}

// Predict returns the class label (classification; NaN for a NaN score)
// or the value (regression). It panics if len(x) != NumInputs().
func (m *Model) Predict(x []float64) float64 {
	m.check(x)
	s := m.get()
	m.eval(s, x)
	v := output(m.p, m.classes, m.cfg.Task, s.w.f)
	m.scratch.Put(s)
	return v
}

// Probability estimates, for a binary model, the probability of the
// larger label: the logistic function of the score for the logistic loss,
// (1 + score)/2 clamped to [0, 1] for the hinge loss (a crude estimate).
// It is NaN for regression and multiclass models.
func (m *Model) Probability(x []float64) float64 {
	s := m.Score(x)
	switch {
	case m.cfg.Task != learners.Binary || m.p.C > 1:
		return math.NaN()
	case m.cfg.Loss == Logistic:
		return 1 / (1 + xmath.Exp(-s)) // xmath: the same bits on every architecture
	}
	return math.Max(0, math.Min(1, (1+s)/2))
}

// PredictBatch writes Predict of every row of X into dst. It returns an
// error, and writes nothing, if X does not have NumInputs() columns or
// len(dst) != X.Rows.
func (m *Model) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := learners.CheckShape(X, m.p.d); err != nil {
		return fmt.Errorf("rrf: PredictBatch: %w", err)
	}
	if len(dst) != X.Rows {
		return fmt.Errorf("rrf: PredictBatch: len(dst) = %d, X has %d rows", len(dst), X.Rows)
	}
	s := m.get()
	for i := range dst {
		m.eval(s, X.Row(i))
		dst[i] = output(m.p, m.classes, m.cfg.Task, s.w.f)
	}
	m.scratch.Put(s)
	return nil
}
