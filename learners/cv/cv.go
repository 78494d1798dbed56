// Package cv is k-fold cross-validated grid search over learner
// configurations, as the CLI and the paper-reproduction suite run it, and
// the evaluation of a model on a labelled data set (EvaluateContext: every
// metric of package metrics at once).
//
// Folds are stratified for classification, binary and multiclass
// (dataset.StratifiedKFold; with sample weights, each class's rows are
// dealt so that every fold gets an equal share of the class's weight), and
// plain random for regression (dataset.KFold). The score of a fold is a
// metric of the held-out part (accuracy for classification, RMSE for
// regression unless Options.Metric says otherwise), weighted by the sample
// weights, signed so that higher is better. Everything is deterministic for
// a seed; candidates and folds run one after another (each Fit may use
// every core itself).
//
// Sample weights reach a learner through FitWeighted, the one place that
// calls a learner with them.
package cv

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/metrics"
)

// Candidate is one configuration of the grid.
type Candidate struct {
	Name string // shown in errors and reports, e.g. "gamma=0.5,lambda=0.01"
	Fit  func(ctx context.Context, X featmap.Matrix, y []float64) (learners.Model, error)
	// FitWeighted fits with sample weights w (len X.Rows, each ≥ 0). When
	// it is nil, a weighted search fits Fit on the rows of positive
	// weight if they all weigh 1, and fails otherwise. Candidates sets it
	// to FitWeighted.
	FitWeighted func(ctx context.Context, X featmap.Matrix, y, w []float64) (learners.Model, error)
}

// Result is the outcome of a GridSearch.
type Result struct {
	Best   int         // index of the candidate with the highest mean score (the first on ties)
	Scores [][]float64 // Scores[c][f]: candidate c on fold f
	Mean   []float64   // mean score of each candidate over the folds
	Metric Metric      // what the scores are (negated when Metric.Lower())
}

// Options configure Search.
type Options struct {
	Task  learners.Task // Binary, Multiclass or Regression
	Folds int           // k ≥ 2, at most the number of rows
	Seed  uint64        // seeds the folds
	// Weights are the sample weights, one per row, finite and ≥ 0 with a
	// positive sum; nil means weight 1 for every row. They enter the
	// fits (FitWeighted), the folds (stratified by weight) and the
	// held-out metrics.
	Weights []float64
	// Metric ranks the candidates; "" means MetricAccuracy for
	// classification and MetricRMSE for regression.
	Metric Metric
}

// GridSearch scores every candidate by k-fold cross-validation on (X, y)
// with the given number of folds (≥ 2) and returns the scores and the best
// candidate: Search with unit weights and the default metric (accuracy,
// or the negative RMSE for regression).
func GridSearch(ctx context.Context, X featmap.Matrix, y []float64, task learners.Task, grid []Candidate, folds int, seed uint64) (Result, error) {
	return Search(ctx, X, y, grid, Options{Task: task, Folds: folds, Seed: seed})
}

// Search scores every candidate by k-fold cross-validation on (X, y) and
// returns the scores and the best candidate. A failing Fit or a cancelled
// ctx stops the search with an error naming the candidate and fold. A NaN
// score (a model predicting NaN) ranks below every other. Errors: an empty
// grid, bad data or weights, a task the labels do not fit (Binary needs
// two classes, Multiclass at least two), a class with fewer rows (of
// positive weight) than folds, a metric that does not apply to the task.
func Search(ctx context.Context, X featmap.Matrix, y []float64, grid []Candidate, opt Options) (Result, error) {
	if len(grid) == 0 {
		return Result{}, errors.New("cv: empty grid")
	}
	if err := kit.CheckData(X, y); err != nil {
		return Result{}, fmt.Errorf("cv: %w", err)
	}
	folds, task, w := opt.Folds, opt.Task, opt.Weights
	if folds < 2 || folds > X.Rows {
		return Result{}, fmt.Errorf("cv: %d folds for %d samples: want 2 ≤ folds ≤ samples", folds, X.Rows)
	}
	if _, err := metrics.CheckWeights(w, X.Rows); err != nil {
		return Result{}, fmt.Errorf("cv: %w", err)
	}
	metric := opt.Metric
	if metric == "" {
		metric = MetricAccuracy
		if task == learners.Regression {
			metric = MetricRMSE
		}
	}
	if !contains(Metrics(task), metric) {
		return Result{}, fmt.Errorf("cv: metric %q does not apply to the %v task (metrics: %v)", string(metric), task, Metrics(task))
	}
	parts, err := Folds(y, w, task, folds, opt.Seed)
	if err != nil {
		return Result{}, err
	}

	res := Result{Scores: make([][]float64, len(grid)), Mean: make([]float64, len(grid)), Metric: metric}
	for c := range grid {
		res.Scores[c] = make([]float64, folds)
	}
	for f, test := range parts {
		train := dataset.TrainIndices(parts, f)
		Xtr, ytr, wtr := learners.Rows(X, train), pick(y, train), pickW(w, train)
		Xte, yte, wte := learners.Rows(X, test), pick(y, test), pickW(w, test)
		for c, cand := range grid {
			if err := ctx.Err(); err != nil {
				return Result{}, fmt.Errorf("cv: %w", err)
			}
			m, err := fitCandidate(ctx, cand, Xtr, ytr, wtr)
			if err == nil {
				res.Scores[c][f], err = scoreFold(m, Xte, yte, wte, metric)
			}
			if err != nil {
				return Result{}, fmt.Errorf("cv: candidate %q, fold %d of %d: %w", cand.Name, f+1, folds, err)
			}
		}
	}
	for c, s := range res.Scores {
		for _, v := range s {
			res.Mean[c] += v / float64(folds)
		}
		if b := res.Mean[res.Best]; res.Mean[c] > b || (math.IsNaN(b) && !math.IsNaN(res.Mean[c])) {
			res.Best = c
		}
	}
	return res, nil
}

func contains(ms []Metric, m Metric) bool {
	for _, v := range ms {
		if v == m {
			return true
		}
	}
	return false
}

// fitCandidate fits cand on one fold's training rows.
func fitCandidate(ctx context.Context, cand Candidate, X featmap.Matrix, y, w []float64) (learners.Model, error) {
	switch {
	case w == nil:
		return cand.Fit(ctx, X, y)
	case cand.FitWeighted != nil:
		return cand.FitWeighted(ctx, X, y, w)
	}
	idx, err := unitRows(w)
	if err != nil {
		return nil, err
	}
	return cand.Fit(ctx, learners.Rows(X, idx), pick(y, idx))
}

// scoreFold is the metric of m on held-out rows, signed so that higher is
// better. A prediction that is not finite scores NaN (it ranks last), as a
// model predicting NaN did before PredictContext checked them.
func scoreFold(m learners.Model, X featmap.Matrix, y, w []float64, metric Metric) (float64, error) {
	o, err := PredictContext(context.Background(), m, X)
	if errors.Is(err, learners.ErrNotFinite) {
		return math.NaN(), nil
	}
	if err != nil {
		return 0, err
	}
	r, err := o.Report(y, w)
	if err != nil {
		return 0, err
	}
	return metric.value(r)
}

func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

// Accuracy is the fraction of rows of X whose prediction equals y.
func Accuracy(m learners.Model, X featmap.Matrix, y []float64) (float64, error) {
	p, err := predict(m, X, y)
	if err != nil {
		return 0, err
	}
	ok := 0
	for i, v := range p {
		if v == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y)), nil
}

// RMSE is the root mean squared error of the predictions for the rows of X.
func RMSE(m learners.Model, X featmap.Matrix, y []float64) (float64, error) {
	p, err := predict(m, X, y)
	if err != nil {
		return 0, err
	}
	var se float64
	for i, v := range p {
		se += (v - y[i]) * (v - y[i])
	}
	return math.Sqrt(se / float64(len(y))), nil
}

func predict(m learners.Model, X featmap.Matrix, y []float64) ([]float64, error) {
	if err := kit.CheckData(X, y); err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	if X.Cols != m.NumInputs() {
		return nil, fmt.Errorf("cv: X has %d columns, the model takes %d inputs", X.Cols, m.NumInputs())
	}
	p := make([]float64, X.Rows)
	if err := m.PredictBatch(p, X); err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	return p, nil
}
