package cv

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/metrics"
)

// ErrNoWeights is wrapped by the error of FitWeighted for weights that
// neither the learner nor row repetition can honour.
var ErrNoWeights = errors.New("the learner takes no sample weights")

// maxRepeat bounds the repetition FitWeighted falls back to: the repeated
// data set has at most maxRepeat times the rows of the original.
const maxRepeat = 16

// FitWeighted fits method m with the Config cfg on the rows of X weighted
// by w (nil: every row weight 1; else finite, ≥ 0, positive sum). It is the
// one place where sample weights reach a learner (rfkit train and cv call
// it, and Candidates makes every candidate call it):
//
//   - with nil weights it is m.Fit;
//   - rows of weight 0 are dropped;
//   - a learner that takes weights gets them (learnerFitWeighted);
//   - otherwise integer weights repeat each row w times, which is what a
//     weight means (training with weight 2 on a row equals training with
//     the row twice), up to 16 times the rows; other weights are
//     an error wrapping ErrNoWeights that names the method.
func FitWeighted(ctx context.Context, m learners.Method, X featmap.Matrix, y, w []float64, cfg any, progress learners.Progress) (learners.Model, error) {
	if w == nil {
		return m.Fit(ctx, X, y, cfg, progress)
	}
	if len(y) != X.Rows {
		return nil, fmt.Errorf("cv: X has %d rows but y has %d values", X.Rows, len(y))
	}
	if _, err := metrics.CheckWeights(w, X.Rows); err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	if model, ok, err := learnerFitWeighted(ctx, m, X, y, w, cfg, progress); ok {
		return model, err
	}
	if !slices.ContainsFunc(w, func(v float64) bool { return v != 1 }) {
		return m.Fit(ctx, X, y, cfg, progress)
	}
	var idx []int
	for i, v := range w {
		if v != math.Trunc(v) {
			return nil, fmt.Errorf("cv: %s: weight %v of row %d is not an integer, and %w (integer weights work, as repeated rows)", m.Name, v, i, ErrNoWeights)
		}
		if len(idx)+int(v) > maxRepeat*X.Rows {
			return nil, fmt.Errorf("cv: %s: %w, and the weights sum to more than %d times the rows, too many to repeat", m.Name, ErrNoWeights, maxRepeat)
		}
		for range int(v) {
			idx = append(idx, i)
		}
	}
	return m.Fit(ctx, learners.Rows(X, idx), pick(y, idx), cfg, progress)
}

// learnerFitWeighted is the call into a learner that takes sample weights
// (its Method.FitWeighted); ok reports whether m has one, else FitWeighted
// repeats rows instead. w is already checked (finite, ≥ 0, positive sum,
// len X.Rows).
func learnerFitWeighted(ctx context.Context, m learners.Method, X featmap.Matrix, y, w []float64, cfg any, progress learners.Progress) (model learners.Model, ok bool, err error) {
	if m.FitWeighted == nil {
		return nil, false, nil
	}
	model, err = m.FitWeighted(ctx, X, y, w, cfg, progress)
	return model, true, err
}

// unitRows returns the rows of positive weight when they all weigh 1 (a
// candidate without FitWeighted fits them), else an error.
func unitRows(w []float64) ([]int, error) {
	var idx []int
	for i, v := range w {
		switch v {
		case 0:
		case 1:
			idx = append(idx, i)
		default:
			return nil, fmt.Errorf("weight %v of row %d: the candidate has no FitWeighted: %w", v, i, ErrNoWeights)
		}
	}
	return idx, nil
}

func pickW(w []float64, idx []int) []float64 {
	if w == nil {
		return nil
	}
	return pick(w, idx)
}

// Folds partitions the rows 0..len(y)−1 into k folds for the task, each
// sorted: stratified by class for Binary and Multiclass, random for
// Regression, deterministic for seed. Without weights (w nil) they are
// dataset.StratifiedKFold and dataset.KFold. With weights, the rows of each
// class (classes in increasing order, rows shuffled by seed) go one by one
// to the fold that has the least weight of that class so far (the fold
// with fewest rows of the class, then the next in turn, on ties), so every
// fold holds about a k-th of every class's weight; regression folds stay
// random. Errors: k < 2 or above the rows; Binary labels that are not two
// classes; a class with fewer than k rows (of positive weight, when
// weighted), which would be missing from a fold.
func Folds(y, w []float64, task learners.Task, k int, seed uint64) ([][]int, error) {
	var parts [][]int
	var err error
	switch task {
	case learners.Binary, learners.Multiclass:
		if task == learners.Binary {
			if _, _, err = learners.BinaryLabels(y); err != nil {
				return nil, fmt.Errorf("cv: %w", err)
			}
		} else if k := distinctCount(y); k < 2 {
			return nil, fmt.Errorf("cv: labels: only one class; classification needs two or more")
		}
		if w == nil {
			parts, err = dataset.StratifiedKFold(y, k, seed)
		} else {
			parts, err = weightedStratified(y, w, k, seed)
		}
	case learners.Regression:
		parts, err = dataset.KFold(len(y), k, seed)
	default:
		err = fmt.Errorf("invalid task %v", task)
	}
	if err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	return parts, nil
}

func distinctCount(y []float64) int {
	s := slices.Clone(y)
	slices.Sort(s)
	return len(slices.Compact(s))
}

// weightedStratified is Folds for weighted classification.
func weightedStratified(y, w []float64, k int, seed uint64) ([][]int, error) {
	if k < 2 || len(y) < k {
		return nil, fmt.Errorf("%d folds for %d rows", k, len(y))
	}
	classes := slices.Clone(y)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	folds := make([][]int, k)
	next := 0
	for _, c := range classes {
		var members []int
		positive := 0
		for i, v := range y {
			if v == c {
				members = append(members, i)
				if w[i] > 0 {
					positive++
				}
			}
		}
		if positive < k {
			return nil, fmt.Errorf("class %v has %d rows of positive weight, fewer than the %d folds", c, positive, k)
		}
		rng.Shuffle(len(members), func(a, b int) { members[a], members[b] = members[b], members[a] })
		weight, rows := make([]float64, k), make([]int, k)
		for _, i := range members {
			best := -1
			for j := range k {
				f := (next + j) % k
				if best < 0 || weight[f] < weight[best] || (weight[f] == weight[best] && rows[f] < rows[best]) {
					best = f
				}
			}
			folds[best] = append(folds[best], i)
			weight[best] += w[i]
			rows[best]++
			next = (best + 1) % k
		}
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds, nil
}
