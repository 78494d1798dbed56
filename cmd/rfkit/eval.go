package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// evalResult is the -json output of eval.
type evalResult struct {
	Metric string  `json:"metric"` // "accuracy" or "rmse"
	Value  float64 `json:"value"`
	N      int     `json:"n"`
}

// runEval scores a model on a labelled data file.
func runEval(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("eval",
		"rfkit eval -model FILE -data FILE [-format csv|libsvm] [-label COL] [-json]",
		"Prints the accuracy, a fraction in [0, 1] (classification), or the RMSE\n"+
			"(regression) of the model on the labelled data file.")
	var d dataFlags
	modelPath := fs.String("model", "", "model `FILE` written by rfkit train")
	d.register(fs)
	asJSON := fs.Bool("json", false, `print one JSON object {"metric": "accuracy"|"rmse", "value": …, "n": rows}`)
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	if *modelPath == "" {
		return usagef("-model is required")
	}
	if err := d.check(); err != nil {
		return err
	}
	model, _, err := loadModel(*modelPath)
	if err != nil {
		return err
	}
	ds, err := d.loadFor(model.NumInputs(), true)
	if err != nil {
		return err
	}
	r := evalResult{Metric: "accuracy", N: ds.N}
	if model.Task() == learners.Binary {
		r.Value, err = cv.Accuracy(model, matrix(ds), ds.Y)
	} else {
		r.Metric = "rmse"
		r.Value, err = cv.RMSE(model, matrix(ds), ds.Y)
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if *asJSON {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s %.6g (n=%d)\n", r.Metric, r.Value, r.N)
	return nil
}
