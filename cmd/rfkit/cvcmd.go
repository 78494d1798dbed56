package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// runCV runs a k-fold cross-validated grid search.
func runCV(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("cv",
		"rfkit cv -method NAME -data FILE -grid name=v1,v2,... [-grid ...] [-folds 5] [-param name=value]... [-seed N]",
		"Scores every combination of the -grid values by k-fold cross-validation on\n"+
			"the data file (stratified folds for classification, random folds for\n"+
			"regression; the protocol of the papers' model selection), and prints the\n"+
			"mean ± standard deviation over the folds of the accuracy (classification) or\n"+
			"RMSE (regression) of each setting, and the best setting. -param fixes the\n"+
			"parameters that do not vary; -seed also seeds the folds.")
	var d dataFlags
	var f fitFlags
	var g grid
	f.register(fs)
	d.registerTraining(fs)
	fs.Var(&g, "grid", "hyper-parameter `name=v1,v2,...` to search, repeatable (the grid is the Cartesian product)")
	folds := fs.Int("folds", 5, "number of folds `k`")
	quiet := fs.Bool("quiet", false, "no progress bar")
	fs.extra = func(w io.Writer) { methodHelp(w, args) }
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	m, err := f.lookup()
	if err != nil {
		return err
	}
	if err := f.precheck(m); err != nil {
		return err
	}
	if len(g.kv) == 0 {
		return usagef("-grid is required (e.g. -grid gamma=0.5,1,2)")
	}
	if *folds < 2 {
		return usagef("-folds %d: want at least 2", *folds)
	}
	if _, err := cv.Expand(m.NewConfig(), g.values()); err != nil {
		return &usageError{err.Error()}
	}
	if err := d.check(); err != nil {
		return err
	}
	ds, err := d.loadLabelled()
	if err != nil {
		return err
	}
	base, task, err := f.config(m, fs, ds.Y, ds.LabelName)
	if err != nil {
		return err
	}
	variants, err := cv.Expand(base, g.values())
	if err != nil {
		return &usageError{err.Error()}
	}
	for _, v := range variants {
		if c, ok := v.Config.(interface{ Validate() error }); ok {
			if err := c.Validate(); err != nil {
				return usagef("grid setting %s: %v", v.Name, err)
			}
		}
		if err := f.checkSize(v.Config, ds.D); err != nil {
			return fmt.Errorf("grid setting %s: %w", settingName(v), err)
		}
	}

	bar := newProgress(e.stderr, *quiet, "cv "+m.Name, len(variants)**folds)
	cands := cv.Candidates(m, variants)
	for i := range cands {
		fit := cands[i].Fit
		cands[i].Fit = func(ctx context.Context, X featmap.Matrix, y []float64) (learners.Model, error) {
			model, err := fit(ctx, X, y)
			bar.step()
			if err == nil && model.Task() != task {
				return nil, fmt.Errorf("%s fitted a %s model for a %s search; give -task %s", m.Name, model.Task(), task, model.Task())
			}
			return model, err
		}
	}
	var res cv.Result
	if task == learners.Binary && distinct(ds.Y, 3) > 2 {
		// A multiclass classifier (rrf -param multiclass=true): what train
		// accepts, cv must too; cv.GridSearch scores two classes only.
		res, err = multiclassSearch(ctx, ds, cands, *folds, f.seed)
	} else {
		res, err = cv.GridSearch(ctx, matrix(ds), ds.Y, task, cands, *folds, f.seed)
	}
	bar.done(err == nil)
	if err != nil {
		return err
	}
	printCV(e.stdout, m.Name, d.path, ds.N, task, *folds, variants, res)
	return nil
}

// multiclassSearch is cv.GridSearch for a classifier of three or more
// classes: stratified folds over every class, accuracy scores, the first
// best mean.
func multiclassSearch(ctx context.Context, ds *dataset.Dataset, cands []cv.Candidate, folds int, seed uint64) (cv.Result, error) {
	parts, err := dataset.StratifiedKFold(ds.Y, folds, seed)
	if err != nil {
		return cv.Result{}, fmt.Errorf("cv: %w", err)
	}
	res := cv.Result{Scores: make([][]float64, len(cands)), Mean: make([]float64, len(cands))}
	for c := range cands {
		res.Scores[c] = make([]float64, folds)
	}
	for f, test := range parts {
		train, held := ds.Subset(dataset.TrainIndices(parts, f)), ds.Subset(test)
		for c, cand := range cands {
			if err := ctx.Err(); err != nil {
				return cv.Result{}, fmt.Errorf("cv: %w", err)
			}
			m, err := cand.Fit(ctx, matrix(train), train.Y)
			if err == nil {
				res.Scores[c][f], err = cv.Accuracy(m, matrix(held), held.Y)
			}
			if err != nil {
				return cv.Result{}, fmt.Errorf("cv: candidate %q, fold %d of %d: %w", cand.Name, f+1, folds, err)
			}
		}
	}
	for c, s := range res.Scores {
		for _, v := range s {
			res.Mean[c] += v / float64(folds)
		}
		if res.Mean[c] > res.Mean[res.Best] {
			res.Best = c
		}
	}
	return res, nil
}

// printCV prints the table of a grid search and its best setting.
func printCV(w io.Writer, method, path string, n int, task learners.Task, folds int, variants []cv.Variant, res cv.Result) {
	metric, sign, kind := "accuracy", 1.0, "stratified"
	if task == learners.Regression {
		metric, sign, kind = "RMSE", -1, "random"
	}
	fmt.Fprintf(w, "%s on %s: %d rows, %s, %d-fold %s cross-validation, %s (mean ± std over folds)\n",
		method, path, n, task, folds, kind, metric)
	width := len("setting")
	for _, v := range variants {
		width = max(width, len(settingName(v)))
	}
	fmt.Fprintf(w, "  %-*s  %s\n", width, "setting", metric)
	for i, v := range variants {
		mean, std := meanStd(res.Scores[i], sign)
		mark := ""
		if i == res.Best {
			mark = "  *"
		}
		fmt.Fprintf(w, "  %-*s  %.4f ± %.4f%s\n", width, settingName(v), mean, std, mark)
	}
	mean, std := meanStd(res.Scores[res.Best], sign)
	fmt.Fprintf(w, "best: %s (%s %.4f ± %.4f)\n", settingName(variants[res.Best]), metric, mean, std)
}

func settingName(v cv.Variant) string {
	if v.Name == "" {
		return "(defaults)"
	}
	return strings.ReplaceAll(v.Name, ",", " ")
}

// meanStd returns the mean and sample standard deviation of sign·s.
func meanStd(s []float64, sign float64) (mean, std float64) {
	for _, v := range s {
		mean += sign * v
	}
	mean /= float64(len(s))
	if len(s) < 2 {
		return mean, 0
	}
	for _, v := range s {
		std += (sign*v - mean) * (sign*v - mean)
	}
	return mean, math.Sqrt(std / float64(len(s)-1))
}
