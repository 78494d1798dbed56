package learners

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners/internal/par"
	"github.com/rfkit/rfkit/metrics"
)

// The metrics of PermutationImportance (PermutationConfig.Metric).
const (
	metricAccuracy = "accuracy"
	metricLogLoss  = "logloss"
	metricRMSE     = "rmse"
)

// PermutationConfig configures PermutationImportance. The zero value
// scores a classifier by its accuracy and a regression by its RMSE, with
// the default Repeats, shuffles drawn with seed 0, on GOMAXPROCS
// goroutines.
type PermutationConfig struct {
	// Metric is "accuracy" (the fraction of rows predicted right,
	// metrics.Accuracy; the drop is baseline − shuffled) or "logloss" (the
	// log loss of the class probabilities of a ClassModel, metrics.LogLoss;
	// the drop is shuffled − baseline) for a classifier, "rmse" (the root
	// mean squared error, metrics.RMSE; the drop is shuffled − baseline)
	// for a regression; "" is accuracy or RMSE by the model's task.
	Metric string
	// Repeats is the number of shuffles of each input (0: 5; at most 10⁶).
	Repeats int
	// Seed fixes the shuffles: shuffle r of input j is drawn from its own
	// PCG stream (Seed, j·2³² + r), so it does not depend on the other
	// inputs, the goroutines or the number of repeats.
	Seed uint64
	// Threads bounds the goroutines (0 = GOMAXPROCS); the result is the
	// same bits for any value.
	Threads Threads
}

// Importances is the permutation importance of each input of a model: how
// much its metric drops when the values of that one input are shuffled
// among the rows, which breaks the input's link with the target and with
// the other inputs.
type Importances struct {
	// Metric is the metric used ("accuracy", "logloss" or "rmse") and
	// Baseline its value on the data as passed.
	Metric   string
	Baseline float64
	// Repeats is the number of shuffles of each input.
	Repeats int
	// Mean[j] is the mean drop of the metric over the shuffles of input j,
	// signed so that larger means more important (baseline − shuffled
	// accuracy; shuffled − baseline log loss or RMSE); near 0 for an input
	// the model ignores, and possibly negative by chance. Std[j] is the
	// standard deviation of the drops (over Repeats, not Repeats − 1).
	Mean, Std []float64
}

// PermutationImportance measures the importance of every input of m on
// the labelled rows X, y (Breiman's permutation importance, as
// scikit-learn's permutation_importance): the metric on the data as
// passed, then for each input j and each of cfg.Repeats seeded shuffles
// the metric with column j shuffled among the rows, all other columns
// unchanged. It works for any Model; pass held-out data to measure what
// the model uses to generalise rather than what it memorised.
//
// The result depends only on m, X, y and cfg (not on cfg.Threads or
// GOMAXPROCS): each (input, shuffle) task writes its own slot and the
// means add them in order. Cost: d·Repeats passes of Predict (or
// Probabilities) over the n rows, no copy of X. ctx is checked before
// each task.
//
// Errors, all wrapped with "permutation importance: ": a nil model, a
// malformed X or one whose columns are not m.NumInputs() (wrapping
// ErrShape), fewer than 2 rows, len(y) != X.Rows, a bad cfg (an unknown
// metric, a metric of the other task, log loss of a model without class
// probabilities, Repeats or Threads out of range, more than 10⁶
// inputs × shuffles), a label that is not one of a classifier's classes
// or (regression) not finite (metrics.ErrInput), a prediction that is not
// finite (ErrNotFinite from the model, or metrics.ErrInput when a
// shuffled row overflows), and ctx's error.
func PermutationImportance(ctx context.Context, m Model, X featmap.Matrix, y []float64, cfg PermutationConfig) (*Importances, error) {
	s, err := newPermutation(m, X, y, cfg)
	if err != nil {
		return nil, fmt.Errorf("permutation importance: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("permutation importance: %w", err)
	}
	scr := s.scratch()
	if s.cm == nil {
		if err := m.PredictBatch(scr.pred, X); err != nil {
			return nil, fmt.Errorf("permutation importance: %w", err)
		}
	}
	base, err := s.score(scr, -1, nil)
	if err != nil {
		return nil, fmt.Errorf("permutation importance: %w", err)
	}
	d, R := X.Cols, s.repeats
	drops := make([]float64, d*R)
	errs := make([]error, d*R)
	par.Each(int(cfg.Threads), d*R, false, s.scratch, nil, func(t int, sc *permScratch) {
		if ctx.Err() != nil {
			return
		}
		j, r := t/R, t%R
		col := sc.col
		for i := range col {
			col[i] = X.Row(i)[j]
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(j)<<32|uint64(r)))
		rng.Shuffle(len(col), func(a, b int) { col[a], col[b] = col[b], col[a] })
		v, err := s.score(sc, j, col)
		if err != nil {
			errs[t] = fmt.Errorf("input %d, shuffle %d: %w", j, r, err)
			return
		}
		if s.metric == metricAccuracy {
			drops[t] = base - v
		} else {
			drops[t] = v - base
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("permutation importance: %w", err)
	}
	if err := firstError(errs); err != nil {
		return nil, fmt.Errorf("permutation importance: %w", err)
	}
	out := &Importances{Metric: s.metric, Baseline: base, Repeats: R, Mean: make([]float64, d), Std: make([]float64, d)}
	for j := range d {
		row := drops[j*R : (j+1)*R]
		var sum float64
		for _, v := range row {
			sum += v
		}
		mean := sum / float64(R)
		var ss float64
		for _, v := range row {
			ss += float64((v - mean) * (v - mean))
		}
		out.Mean[j], out.Std[j] = mean, math.Sqrt(ss/float64(R))
	}
	return out, nil
}

// firstError returns the first non-nil error of errs.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// permutation is the checked problem of a PermutationImportance.
type permutation struct {
	m       Model
	cm      ClassModel // set for the log loss
	X       featmap.Matrix
	y       []float64
	metric  string
	repeats int
	classes []float64
}

// permScratch is one goroutine's working space: a row, the shuffled
// column, the predictions or the class probabilities.
type permScratch struct {
	row, col, pred, prob []float64
}

func newPermutation(m Model, X featmap.Matrix, y []float64, cfg PermutationConfig) (*permutation, error) {
	if m == nil {
		return nil, errors.New("no model")
	}
	if err := X.Check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrShape, err)
	}
	if X.Cols != m.NumInputs() {
		return nil, fmt.Errorf("%w: X has %d columns, the model %d inputs", ErrShape, X.Cols, m.NumInputs())
	}
	if X.Rows < 2 {
		return nil, fmt.Errorf("X has %d rows: shuffling needs at least 2", X.Rows)
	}
	if len(y) != X.Rows {
		return nil, fmt.Errorf("X has %d rows but y has %d values", X.Rows, len(y))
	}
	if cfg.Repeats < 0 || cfg.Repeats > limit.Count {
		return nil, fmt.Errorf("Repeats = %d, want 1..%d (0 for the default %d)", cfg.Repeats, limit.Count, limit.DefaultRepeats)
	}
	if cfg.Threads < 0 || cfg.Threads > limit.Threads {
		return nil, fmt.Errorf("Threads = %d, want 1..%d (0 for GOMAXPROCS)", cfg.Threads, limit.Threads)
	}
	s := &permutation{m: m, X: X, y: y, metric: cfg.Metric, repeats: cfg.Repeats}
	if s.repeats == 0 {
		s.repeats = limit.DefaultRepeats
	}
	if X.Cols > limit.Count/s.repeats {
		return nil, fmt.Errorf("%d inputs × %d shuffles: more than %d tasks", X.Cols, s.repeats, limit.Count)
	}
	regression := m.Task() == Regression
	switch {
	case s.metric == "" && regression:
		s.metric = metricRMSE
	case s.metric == "":
		s.metric = metricAccuracy
	case s.metric == metricRMSE && !regression, (s.metric == metricAccuracy || s.metric == metricLogLoss) && regression:
		return nil, fmt.Errorf("metric %q does not apply to a %v model", s.metric, m.Task())
	case s.metric == metricLogLoss:
		cm, ok := m.(ClassModel)
		if !ok || len(cm.Classes()) < 2 {
			return nil, fmt.Errorf("metric %q needs a model with class probabilities (a %T has none)", s.metric, m)
		}
		s.cm, s.classes = cm, cm.Classes()
	case s.metric != metricAccuracy && s.metric != metricRMSE:
		return nil, fmt.Errorf("unknown metric %q (want %s, %s or %s)", s.metric, metricAccuracy, metricLogLoss, metricRMSE)
	}
	if cm, ok := m.(ClassModel); ok && !regression {
		classes := cm.Classes()
		for i, v := range y {
			if !slices.Contains(classes, v) {
				return nil, fmt.Errorf("y[%d] is %v, not one of the model's classes %v", i, v, classes)
			}
		}
	}
	return s, nil
}

func (s *permutation) scratch() *permScratch {
	n := s.X.Rows
	sc := &permScratch{row: make([]float64, s.X.Cols), col: make([]float64, n), pred: make([]float64, n)}
	if s.cm != nil {
		sc.prob = make([]float64, n*len(s.classes))
	}
	return sc
}

// score returns the metric with input j of every row i replaced by col[i]
// (j < 0: the rows as they are; the predictions are then already in
// sc.pred unless the metric is the log loss).
func (s *permutation) score(sc *permScratch, j int, col []float64) (float64, error) {
	K := len(s.classes)
	if j >= 0 || s.cm != nil {
		for i := range s.X.Rows {
			x := s.X.Row(i)
			if j >= 0 {
				copy(sc.row, x)
				sc.row[j] = col[i]
				x = sc.row
			}
			if s.cm != nil {
				if err := s.cm.Probabilities(sc.prob[i*K:(i+1)*K], x); err != nil {
					return 0, fmt.Errorf("row %d: %w", i, err)
				}
				continue
			}
			sc.pred[i] = s.m.Predict(x)
		}
	}
	switch s.metric {
	case metricRMSE:
		return metrics.RMSE(s.y, sc.pred, nil)
	case metricLogLoss:
		return metrics.LogLoss(s.y, s.classes, sc.prob, nil)
	}
	return metrics.Accuracy(s.y, sc.pred, nil)
}
