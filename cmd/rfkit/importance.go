package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
)

// importancer is a model with a learned variable importance: one
// non-negative score per input, larger meaning more relevant (SRFF's
// learned scales, RRF's bandwidths).
type importancer interface {
	Importance() []float64
}

// importanceInput is one input in the -json output of importance.
type importanceInput struct {
	Rank    int        `json:"rank"`
	Input   int        `json:"input"`
	Name    string     `json:"name,omitempty"`
	Drop    *jsonFloat `json:"drop,omitempty"`    // permutation: mean drop of the metric
	Std     *jsonFloat `json:"std,omitempty"`     // permutation: its standard deviation over the shuffles
	Learned *jsonFloat `json:"learned,omitempty"` // the method's learned importance (srff, rrf)
}

// importanceResult is the -json output of importance: with -data the
// permutation importance (metric, baseline, repeats, seed, n), and the
// inputs ranked.
type importanceResult struct {
	Metric   string            `json:"metric,omitempty"`
	Baseline *jsonFloat        `json:"baseline,omitempty"`
	Repeats  int               `json:"repeats,omitempty"`
	Seed     *uint64           `json:"seed,omitempty"`
	N        int               `json:"n,omitempty"`
	Inputs   []importanceInput `json:"inputs"`
}

// runImportance prints the inputs of a model ranked by importance: the
// permutation importance on a labelled data file (every model), or the
// importance the method learns (srff, rrf) without one.
func runImportance(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("importance",
		"rfkit importance -model FILE [-data FILE [-format csv|libsvm] [-label COL] [-metric M] [-repeats N] [-seed N] [-threads N]] [-top N] [-json]",
		"Ranks the model's inputs by importance. With -data, for every model: the\n"+
			"permutation importance on the labelled rows of FILE (use held-out rows),\n"+
			"the mean drop of the model's metric when one input's values are shuffled\n"+
			"among the rows, over -repeats seeded shuffles (drop: baseline − shuffled\n"+
			"accuracy, or shuffled − baseline log loss or RMSE; about 0 for an input\n"+
			"the model ignores), with its standard deviation; for a model that also\n"+
			"learns an importance (SRFF's feature scales, RRF's bandwidths) that is a\n"+
			"further column. Without -data: the learned importance, for the methods\n"+
			"that have one. Inputs are numbered from 0 in the order of the feature\n"+
			"columns (the label column removed) and named by the model's feature\n"+
			"names or the CSV header.")
	var d dataFlags
	modelPath := fs.String("model", "", "model `FILE` written by rfkit train")
	d.registerModelData(fs)
	// A model has at most the inputs a data file can have (-max-inputs).
	top := fs.intRange("top", 0, 0, maxMaxInputs, "print only the `N` most important inputs (0: all)")
	metric := fs.String("metric", "", "the permutation metric `M`: accuracy (default for a classifier) or logloss, rmse (regression)")
	repeats := fs.intRange("repeats", limit.DefaultRepeats, 1, limit.Count, "shuffles `N` per input")
	seed := fs.Uint64("seed", 0, "the seed `N` of the shuffles")
	threads := fs.intRange("threads", 0, 0, limit.Threads, "goroutines `N` (0: GOMAXPROCS); the result does not depend on it")
	asJSON := fs.Bool("json", false, `print one JSON object: {"metric", "baseline", "repeats", "seed", "n" (with -data), "inputs": [{"rank", "input", "name", "drop", "std", "learned"}, …]}`)
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	if *modelPath == "" {
		return usagef("-model is required")
	}
	if d.path == "" {
		for _, f := range []string{"metric", "repeats", "seed", "threads", "format", "label", "ignore-names"} {
			if fs.isSet(f) {
				return usagef("-%s applies to the permutation importance, which needs -data", f)
			}
		}
	} else if err := d.check(); err != nil {
		return err
	}
	model, err := loadModel(*modelPath)
	if err != nil {
		return err
	}
	var learned []float64
	if im, ok := model.Model.(importancer); ok {
		learned = im.Importance()
		if len(learned) != model.NumInputs() {
			return fmt.Errorf("%s: %d importance scores for %d inputs", *modelPath, len(learned), model.NumInputs())
		}
	} else if d.path == "" {
		return fmt.Errorf("%s: a %s model has no learned variable importance (only methods that learn one per input, such as SRFF and RRF, have it); -data FILE gives any model's permutation importance on labelled rows", *modelPath, model.file.Header.Method)
	}
	names := model.file.Header.Names // the training file's, if it had a header
	res := importanceResult{}
	var scores []float64 // the ranking
	var imp *learners.Importances
	if d.path != "" {
		ds, err := d.loadFor(model.NumInputs(), names, true)
		if err != nil {
			return err
		}
		if ds.FeatureNames != nil {
			names = ds.FeatureNames
		}
		imp, err = learners.PermutationImportance(ctx, model.Model, ds.Matrix(), ds.Y, learners.PermutationConfig{
			Metric: *metric, Repeats: *repeats, Seed: *seed, Threads: learners.Threads(*threads)})
		if err != nil {
			return fmt.Errorf("%s: %w", d.path, err)
		}
		scores = imp.Mean
		res.Metric, res.Baseline, res.Repeats, res.Seed, res.N = imp.Metric, jf(imp.Baseline), imp.Repeats, seed, ds.N
	} else {
		scores = learned
	}
	for r, j := range rank(scores, *top) {
		in := importanceInput{Rank: r + 1, Input: j}
		if j < len(names) {
			in.Name = names[j]
		}
		if imp != nil {
			in.Drop, in.Std = jf(imp.Mean[j]), jf(imp.Std[j])
		}
		if learned != nil {
			in.Learned = jf(learned[j])
		}
		res.Inputs = append(res.Inputs, in)
	}
	if *asJSON {
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
		return ctx.Err()
	}
	if imp == nil {
		printImportance(e.stdout, learned, names, *top)
		return ctx.Err()
	}
	printPermutation(e.stdout, res)
	return ctx.Err()
}

// rank returns the inputs ordered by decreasing score (ties by input), the
// top ones if top > 0.
func rank(scores []float64, top int) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	if top > 0 && top < len(order) {
		order = order[:top]
	}
	return order
}

// printImportance prints the inputs ranked by score (the top ones if top >
// 0), named by names where they have a name.
func printImportance(w io.Writer, scores []float64, names []string, top int) {
	t := newTable(w, "rank", "input", "name:12", "importance")
	for r, j := range rank(scores, top) {
		name := "-"
		if j < len(names) && names[j] != "" {
			name = names[j]
		}
		t.row(strconv.Itoa(r+1), strconv.Itoa(j), name, fmt.Sprintf("%.6g", scores[j]))
	}
}

// printPermutation prints a permutation importance: a line naming the
// metric, then the ranked inputs with the mean drop, its standard
// deviation and the learned importance where the model has one.
func printPermutation(w io.Writer, r importanceResult) {
	fmt.Fprintf(w, "permutation importance: drop of %s (baseline %.6g on %d rows), mean and std over %d shuffles per input, seed %d\n",
		r.Metric, float64(*r.Baseline), r.N, r.Repeats, *r.Seed)
	header := []string{"rank", "input", "name:12", "drop:10", "std:10"}
	if len(r.Inputs) > 0 && r.Inputs[0].Learned != nil {
		header = append(header, "learned")
	}
	t := newTable(w, header...)
	for _, in := range r.Inputs {
		name := in.Name
		if name == "" {
			name = "-"
		}
		cells := []string{strconv.Itoa(in.Rank), strconv.Itoa(in.Input), name, fmt.Sprintf("%.4g", float64(*in.Drop)), fmt.Sprintf("%.4g", float64(*in.Std))}
		if in.Learned != nil {
			cells = append(cells, fmt.Sprintf("%.6g", float64(*in.Learned)))
		}
		t.row(cells...)
	}
}
