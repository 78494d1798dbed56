package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// importancer is a model with a variable importance: one non-negative score
// per input, larger meaning more relevant (SRFF's learned scales, RRF's
// bandwidths).
type importancer interface {
	Importance() []float64
}

// runImportance prints the inputs of a model ranked by importance.
func runImportance(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("importance",
		"rfkit importance -model FILE [-data FILE [-format csv|libsvm] [-label COL]] [-top N]",
		"Ranks the model's inputs by the variable importance the method learns (for\n"+
			"example SRFF's feature scales or RRF's bandwidths). Inputs are numbered from 0\n"+
			"in the order of the feature columns (the label column removed); with -data,\n"+
			"a CSV file's header names them.")
	var d dataFlags
	modelPath := fs.String("model", "", "model `FILE` written by rfkit train")
	d.registerModelData(fs)
	top := fs.Int("top", 0, "print only the `N` most important inputs (0: all)")
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	if *modelPath == "" {
		return usagef("-model is required")
	}
	if *top < 0 {
		return usagef("-top %d: want N ≥ 0", *top)
	}
	if d.path != "" {
		if err := d.check(); err != nil {
			return err
		}
	}
	model, err := loadModel(*modelPath)
	if err != nil {
		return err
	}
	im, ok := model.Model.(importancer)
	if !ok {
		return fmt.Errorf("%s: a %s model has no variable importance (only methods that learn one per input, such as SRFF and RRF, have it)", *modelPath, model.file.Header.Method)
	}
	scores := im.Importance()
	if len(scores) != model.NumInputs() {
		return fmt.Errorf("%s: %d importance scores for %d inputs", *modelPath, len(scores), model.NumInputs())
	}
	names := model.file.Header.Names // the training file's, if it had a header
	if d.path != "" {
		ds, err := d.loadFor(model.NumInputs(), names, false)
		if err != nil {
			return err
		}
		if ds.FeatureNames != nil {
			names = ds.FeatureNames
		}
	}
	printImportance(e.stdout, scores, names, *top)
	return ctx.Err()
}

// printImportance prints the inputs ranked by score (the top ones if top >
// 0), named by names where they have a name.
func printImportance(w io.Writer, scores []float64, names []string, top int) {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	if top > 0 && top < len(order) {
		order = order[:top]
	}
	t := newTable(w, "rank", "input", "name:12", "importance")
	for r, j := range order {
		name := "-"
		if j < len(names) && names[j] != "" {
			name = names[j]
		}
		t.row(strconv.Itoa(r+1), strconv.Itoa(j), name, fmt.Sprintf("%.6g", scores[j]))
	}
}
