package srff

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Model is a fitted SRFF model: f(x) = intercept + coef·z((x − mean)/scale)
// with z(x) = √(2/D)·cos(ε(γ⊙x) + b). It is immutable and safe for
// concurrent use; Predict, Score and PredictBatch allocate nothing (scratch
// space comes from a sync.Pool). Obtain one from Fit or Load; a Model must
// not be copied.
type Model struct {
	cfg         Config    // resolved: no zero defaults, no Progress
	mean, scale []float64 // input standardisation (len d)
	eps, b      []float64 // ε (d×D row-major), phases (D)
	gamma       []float64 // learned scales (d)
	rff         *featmap.RFF
	coef        []float64 // a (D)
	intercept   float64
	search      []SearchPoint // Fit's validation search (not stored in files)

	scratch sync.Pool // of *scratch
}

// scratch is one goroutine's working space for a prediction.
type scratch struct {
	x, z []float64 // standardised input (d), features (D)
}

var _ learners.Model = (*Model)(nil)

// newModel assembles a model; the slices are kept.
func newModel(c Config, mean, scale, eps, b, gamma, coef []float64, intercept float64) (*Model, error) {
	rff, err := scaledMap(eps, b, gamma, len(mean), len(coef))
	if err != nil {
		return nil, err
	}
	return &Model{cfg: c, mean: mean, scale: scale, eps: eps, b: b, gamma: gamma, rff: rff, coef: coef, intercept: intercept}, nil
}

// NumInputs is d, the length of a row.
func (m *Model) NumInputs() int { return len(m.mean) }

// Task is learners.Regression.
func (m *Model) Task() learners.Task { return learners.Regression }

// Config returns the configuration the model was fitted with, defaults
// resolved: Simplex is the size s used and Lambda the λ chosen.
func (m *Model) Config() Config { return m.cfg }

// Importance returns a copy of the learned scales γ, one per input (on
// standardised inputs; Σγ = Config().Simplex). An input with γ = 0 does
// not affect the predictions at all; larger γ means the target varies
// faster along that input.
func (m *Model) Importance() []float64 { return slices.Clone(m.gamma) }

// Ranked returns the inputs (0-based) by decreasing γ, ties by index.
func (m *Model) Ranked() []int {
	idx := make([]int, len(m.gamma))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(p, q int) int { return cmp.Compare(m.gamma[q], m.gamma[p]) })
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
func (m *Model) Search() []SearchPoint { return slices.Clone(m.search) }

// Intercept returns the intercept, the mean of the training targets.
func (m *Model) Intercept() float64 { return m.intercept }

// Score returns the predicted value. It panics if len(x) != NumInputs().
// NaN inputs give NaN.
func (m *Model) Score(x []float64) float64 {
	if len(x) != len(m.mean) {
		panic(fmt.Sprintf("srff: Score/Predict: len(x) = %d, the model takes %d inputs", len(x), len(m.mean)))
	}
	s := m.getScratch()
	v := m.score(s, x)
	m.scratch.Put(s)
	return v
}

// Predict returns the predicted value, Score(x). It panics if
// len(x) != NumInputs().
func (m *Model) Predict(x []float64) float64 { return m.Score(x) }

// PredictBatch writes Predict of every row of X into dst. It returns an
// error, and writes nothing, if X does not have NumInputs() columns or
// len(dst) != X.Rows. Rows are predicted on the calling goroutine.
func (m *Model) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := learners.CheckShape(X, len(m.mean)); err != nil {
		return fmt.Errorf("srff: PredictBatch: %w", err)
	}
	if len(dst) != X.Rows {
		return fmt.Errorf("srff: PredictBatch: len(dst) = %d, X has %d rows", len(dst), X.Rows)
	}
	s := m.getScratch()
	for i := range dst {
		dst[i] = m.score(s, X.Row(i))
	}
	m.scratch.Put(s)
	return nil
}

// score standardises x exactly as Fit did and evaluates the model.
func (m *Model) score(s *scratch, x []float64) float64 {
	xs := s.x[:len(x)]
	for k, v := range x {
		xs[k] = (v - m.mean[k]) / m.scale[k]
	}
	m.rff.TransformRow(s.z, xs)
	return dot(m.coef, s.z) + m.intercept
}

func (m *Model) getScratch() *scratch {
	if s, ok := m.scratch.Get().(*scratch); ok {
		return s
	}
	return &scratch{x: make([]float64, len(m.mean)), z: make([]float64, len(m.coef))}
}
