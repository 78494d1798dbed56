package cv

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/metrics"
)

// TaskOf is the task a model does: Multiclass for a model whose Task is
// Multiclass, and for a Binary one with more than two classes (rrf's
// multiclass models report Binary until the learners know Multiclass),
// else its Task.
func TaskOf(m learners.Model) learners.Task {
	t := m.Task()
	if t == learners.Binary && len(ClassesOf(m)) > 2 {
		return learners.Multiclass
	}
	return t
}

// ClassesOf returns the class labels of a classifier in increasing order:
// its Classes() (learners.ClassModel, or any model with that method), else
// the two labels of a binary model's Labels(); nil for a regression model
// or a model that tells neither. The caller must not modify it.
func ClassesOf(m learners.Model) []float64 {
	if m.Task() == learners.Regression {
		return nil
	}
	if c, ok := m.(interface{ Classes() []float64 }); ok {
		if cl := c.Classes(); len(cl) >= 2 {
			return cl
		}
	}
	if l, ok := m.(interface{ Labels() learners.Labels }); ok {
		if lab := l.Labels(); lab.Neg < lab.Pos {
			return []float64{lab.Neg, lab.Pos}
		}
	}
	return nil
}

// Outputs are what a model says about the rows of a data set.
type Outputs struct {
	Task    learners.Task
	Classes []float64 // a classifier's labels, increasing; nil for regression
	Pred    []float64 // the prediction of every row
	// Prob holds len(Classes) probabilities per row, row-major in the order
	// of Classes: from learners.ClassModel, or {1 − p, p} from the
	// Probability of a binary model; nil when the model estimates none.
	Prob []float64
	// Score is a binary model's score of every row, larger for the larger
	// class (its Score, else the probability of the larger class); nil
	// otherwise.
	Score []float64
}

// predictBlock is the rows PredictContext predicts between two checks of
// its context.
const predictBlock = 1024

// inBlocks calls f on the row ranges [lo, hi) of n rows, predictBlock at a
// time, and stops with ctx's error when it is cancelled.
func inBlocks(ctx context.Context, n int, f func(lo, hi int) error) error {
	for lo := 0; lo < n; lo += predictBlock {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("cv: %w", err)
		}
		if err := f(lo, min(lo+predictBlock, n)); err != nil {
			return err
		}
	}
	return nil
}

// rowRange is the view of the rows [lo, hi) of X.
func rowRange(X featmap.Matrix, lo, hi int) featmap.Matrix {
	if lo == hi {
		return featmap.Matrix{Cols: X.Cols, Stride: X.Stride}
	}
	return featmap.Matrix{Rows: hi - lo, Cols: X.Cols, Stride: X.Stride, Data: X.Data[lo*X.Stride : (hi-1)*X.Stride+X.Cols]}
}

// PredictContext returns the predictions, and the probabilities and scores
// the model has, for every row of X. A row the model cannot predict (a NaN
// input, an output that is not finite) is an error wrapping a
// *learners.RowError (or ErrShape), never a NaN. It stops with ctx's error
// (wrapped) when ctx is cancelled: it checks ctx every 1024 rows,
// so that a slow model (the exact kernel's) on many rows answers Ctrl-C at
// once.
func PredictContext(ctx context.Context, m learners.Model, X featmap.Matrix) (*Outputs, error) {
	if err := kit.CheckShape(X, m.NumInputs()); err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	n := X.Rows
	o := &Outputs{Task: TaskOf(m), Classes: ClassesOf(m), Pred: make([]float64, n)}
	if err := inBlocks(ctx, n, func(lo, hi int) error {
		if err := m.PredictBatch(o.Pred[lo:hi], rowRange(X, lo, hi)); err != nil {
			return fmt.Errorf("cv: %w", err)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for i, v := range o.Pred {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("cv: %w", &learners.RowError{Row: i, Input: -1, Value: v})
		}
	}
	if o.Task == learners.Regression {
		return o, nil
	}
	if o.Classes == nil {
		return o, nil // a model that does not tell its classes: Report uses the labels
	}
	k := len(o.Classes)
	if cm, ok := m.(learners.ClassModel); ok && len(cm.Classes()) == k {
		o.Prob = make([]float64, n*k)
		if err := inBlocks(ctx, n, func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				if err := cm.Probabilities(o.Prob[i*k:(i+1)*k], X.Row(i)); err != nil {
					return fmt.Errorf("cv: row %d: probabilities: %w", i, err)
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
	} else if p, ok := m.(learners.Prober); ok && o.Task == learners.Binary {
		prob := make([]float64, n)
		if pb, ok := m.(interface {
			ProbabilityBatch(dst []float64, X featmap.Matrix) error
		}); ok {
			if err := inBlocks(ctx, n, func(lo, hi int) error {
				if err := pb.ProbabilityBatch(prob[lo:hi], rowRange(X, lo, hi)); err != nil {
					return fmt.Errorf("cv: probabilities: %w", err)
				}
				return nil
			}); err != nil {
				return nil, err
			}
		} else if err := inBlocks(ctx, n, func(lo, hi int) error {
			for i := lo; i < hi; i++ {
				prob[i] = p.Probability(X.Row(i))
			}
			return nil
		}); err != nil {
			return nil, err
		}
		if nan := countNaN(prob); nan > 0 && nan < n {
			i := slices.IndexFunc(prob, math.IsNaN)
			return nil, fmt.Errorf("cv: row %d: the probability is NaN (the inputs overflow the model's arithmetic)", i)
		} else if nan == 0 {
			o.Prob = make([]float64, 2*n)
			for i, v := range prob {
				o.Prob[2*i], o.Prob[2*i+1] = 1-v, v
			}
		}
	}
	if o.Task != learners.Binary {
		return o, nil
	}
	if s, ok := m.(interface {
		ScoreBatch(dst []float64, X featmap.Matrix) error
	}); ok {
		o.Score = make([]float64, n)
		if err := inBlocks(ctx, n, func(lo, hi int) error {
			if err := s.ScoreBatch(o.Score[lo:hi], rowRange(X, lo, hi)); err != nil {
				return fmt.Errorf("cv: scores: %w", err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	} else if o.Prob != nil {
		o.Score = make([]float64, n)
		for i := range n {
			o.Score[i] = o.Prob[2*i+1]
		}
	}
	return o, nil
}

func countNaN(v []float64) int {
	n := 0
	for _, x := range v {
		if math.IsNaN(x) {
			n++
		}
	}
	return n
}

// Report holds every metric of a model on a labelled data set. A metric
// that does not apply (log loss of a model without probabilities, AUC of a
// multiclass model or of a data set with one class, the classification
// metrics of a regression) is NaN; JSON encoders must map NaN to null.
type Report struct {
	Task    learners.Task
	N       int       // rows
	Weight  float64   // total sample weight (N when unweighted)
	Classes []float64 // the model's classes (classification)

	Accuracy  float64     // fraction of the weight predicted right
	LogLoss   float64     // mean cross-entropy (metrics.LogLoss)
	AUC       float64     // binary: area under the ROC curve of Score
	MacroF1   float64     // mean F1 over the classes that occur
	Confusion [][]float64 // Confusion[i][j]: weight of class i predicted j

	RMSE, MAE, R2 float64 // regression
}

// Report scores the outputs against the labels y with sample weights w
// (nil: weight 1 each; see metrics.CheckWeights). A classifier's labels
// must be among its Classes: the error names the first row that is not and
// lists them.
func (o *Outputs) Report(y, w []float64) (*Report, error) {
	n := len(o.Pred)
	if len(y) != n {
		return nil, fmt.Errorf("cv: %d labels for %d predictions", len(y), n)
	}
	total, err := metrics.CheckWeights(w, n)
	if err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	nan := math.NaN()
	r := &Report{Task: o.Task, N: n, Weight: total, Classes: o.Classes,
		Accuracy: nan, LogLoss: nan, AUC: nan, MacroF1: nan, RMSE: nan, MAE: nan, R2: nan}
	if o.Task == learners.Regression {
		if r.RMSE, err = metrics.RMSE(y, o.Pred, w); err == nil {
			r.MAE, _ = metrics.MAE(y, o.Pred, w)
			r.R2, _ = metrics.R2(y, o.Pred, w)
		}
		return r, wrap(err)
	}
	classes := o.Classes
	if classes == nil {
		// A model that does not tell its classes: those of y and the
		// predictions.
		classes = slices.Concat(y, o.Pred)
		slices.Sort(classes)
		classes = slices.Compact(classes)
		r.Classes = classes
	}
	for i, v := range y {
		if !slices.Contains(classes, v) {
			return nil, fmt.Errorf("cv: row %d: label %v is not a class of the model (its classes: %v)", i, v, classes)
		}
	}
	c, err := metrics.NewConfusion(y, o.Pred, classes, w)
	if err != nil {
		return nil, wrap(err)
	}
	r.Confusion, r.Accuracy, r.MacroF1 = c.Counts, c.Accuracy(), c.MacroF1()
	if o.Prob != nil {
		if r.LogLoss, err = metrics.LogLoss(y, o.Classes, o.Prob, w); err != nil {
			return nil, wrap(err)
		}
	}
	if o.Score != nil && len(o.Classes) == 2 {
		auc, err := metrics.AUC(y, o.Score, o.Classes[1], w)
		switch {
		case err == nil:
			r.AUC = auc
		case !onlyOneClass(y, w, o.Classes[1]):
			return nil, wrap(err)
		}
	}
	return r, nil
}

// onlyOneClass reports whether every row of positive weight has label pos,
// or none has: AUC does not apply.
func onlyOneClass(y, w []float64, pos float64) bool {
	var p, q bool
	for i, v := range y {
		if w != nil && w[i] == 0 {
			continue
		}
		p = p || v == pos
		q = q || v != pos
	}
	return !p || !q
}

func wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("cv: %w", err)
}

// EvaluateContext is PredictContext followed by Report: every metric of m
// on the labelled rows (X, y) with sample weights w (nil: unweighted),
// stopping with ctx's error when ctx is cancelled.
func EvaluateContext(ctx context.Context, m learners.Model, X featmap.Matrix, y, w []float64) (*Report, error) {
	if len(y) != X.Rows {
		return nil, fmt.Errorf("cv: X has %d rows but y has %d values", X.Rows, len(y))
	}
	o, err := PredictContext(ctx, m, X)
	if err != nil {
		return nil, err
	}
	return o.Report(y, w)
}

// Metric names a score GridSearch and Search rank candidates by.
type Metric string

// The metrics. Search ranks by the metric's value, larger first for
// Accuracy, AUC, MacroF1 and R2, smaller first for the others; Result
// scores are negated for those so that higher is always better.
const (
	MetricAccuracy Metric = "accuracy" // the default for classification
	MetricLogLoss  Metric = "logloss"
	MetricAUC      Metric = "auc" // binary only
	MetricMacroF1  Metric = "macro-f1"
	MetricRMSE     Metric = "rmse" // the default for regression
	MetricMAE      Metric = "mae"
	MetricR2       Metric = "r2"
)

// Metrics lists the metrics that apply to a task.
func Metrics(t learners.Task) []Metric {
	switch t {
	case learners.Regression:
		return []Metric{MetricRMSE, MetricMAE, MetricR2}
	case learners.Binary:
		return []Metric{MetricAccuracy, MetricLogLoss, MetricAUC, MetricMacroF1}
	}
	return []Metric{MetricAccuracy, MetricLogLoss, MetricMacroF1}
}

// Lower reports whether smaller values of the metric are better.
func (m Metric) Lower() bool {
	return m == MetricLogLoss || m == MetricRMSE || m == MetricMAE
}

// value returns the metric of r, with the sign that makes higher better.
func (m Metric) value(r *Report) (float64, error) {
	var v float64
	switch m {
	case MetricAccuracy:
		v = r.Accuracy
	case MetricLogLoss:
		v = r.LogLoss
	case MetricAUC:
		v = r.AUC
	case MetricMacroF1:
		v = r.MacroF1
	case MetricRMSE:
		v = r.RMSE
	case MetricMAE:
		v = r.MAE
	case MetricR2:
		v = r.R2
	default:
		return 0, fmt.Errorf("unknown metric %q", string(m))
	}
	if math.IsNaN(v) && m == MetricLogLoss {
		return 0, errors.New("metric logloss: the model estimates no probabilities")
	}
	if m.Lower() {
		v = -v
	}
	return v, nil
}
