// Package cv is k-fold cross-validated grid search over learner
// configurations, as the CLI and the paper-reproduction suite run it:
// stratified folds for binary classification (dataset.StratifiedKFold),
// plain random folds for regression (dataset.KFold); the score of a fold is
// the accuracy (binary) or the negative RMSE (regression) on its held-out
// part, so higher is better for both. Everything is deterministic for a
// seed; candidates and folds run one after another (each Fit may use every
// core itself).
package cv

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// Candidate is one configuration of the grid.
type Candidate struct {
	Name string // shown in errors and reports, e.g. "gamma=0.5,lambda=0.01"
	Fit  func(ctx context.Context, X featmap.Matrix, y []float64) (learners.Model, error)
}

// Result is the outcome of a GridSearch.
type Result struct {
	Best   int         // index of the candidate with the highest mean score (the first on ties)
	Scores [][]float64 // Scores[c][f]: candidate c on fold f
	Mean   []float64   // mean score of each candidate over the folds
}

// GridSearch scores every candidate by k-fold cross-validation on (X, y)
// with the given number of folds (≥ 2) and returns the scores and the best
// candidate. A failing Fit or a cancelled ctx stops the search with an error
// naming the candidate and fold. A NaN score (a model predicting NaN) ranks
// below every other.
func GridSearch(ctx context.Context, X featmap.Matrix, y []float64, task learners.Task, grid []Candidate, folds int, seed uint64) (Result, error) {
	if len(grid) == 0 {
		return Result{}, errors.New("cv: empty grid")
	}
	if err := learners.CheckData(X, y); err != nil {
		return Result{}, fmt.Errorf("cv: %w", err)
	}
	if folds < 2 || folds > X.Rows {
		return Result{}, fmt.Errorf("cv: %d folds for %d samples: want 2 ≤ folds ≤ samples", folds, X.Rows)
	}
	var parts [][]int
	var err error
	switch task {
	case learners.Binary:
		if _, _, err = learners.BinaryLabels(y); err == nil {
			parts, err = dataset.StratifiedKFold(y, folds, seed)
		}
	case learners.Regression:
		parts, err = dataset.KFold(X.Rows, folds, seed)
	default:
		err = fmt.Errorf("invalid task %v", task)
	}
	if err != nil {
		return Result{}, fmt.Errorf("cv: %w", err)
	}

	res := Result{Scores: make([][]float64, len(grid)), Mean: make([]float64, len(grid))}
	for c := range grid {
		res.Scores[c] = make([]float64, folds)
	}
	for f, test := range parts {
		train := dataset.TrainIndices(parts, f)
		Xtr, ytr := learners.Rows(X, train), pick(y, train)
		Xte, yte := learners.Rows(X, test), pick(y, test)
		for c, cand := range grid {
			if err := ctx.Err(); err != nil {
				return Result{}, fmt.Errorf("cv: %w", err)
			}
			m, err := cand.Fit(ctx, Xtr, ytr)
			if err == nil {
				res.Scores[c][f], err = score(m, Xte, yte, task)
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

func score(m learners.Model, X featmap.Matrix, y []float64, task learners.Task) (float64, error) {
	if task == learners.Binary {
		return Accuracy(m, X, y)
	}
	r, err := RMSE(m, X, y)
	return -r, err
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
	if err := learners.CheckData(X, y); err != nil {
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
