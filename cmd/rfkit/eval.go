package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
)

// evalResult is the -json output of eval.
type evalResult struct {
	Metric string    `json:"metric"` // "accuracy" or "rmse"
	Value  jsonFloat `json:"value"`
	N      int       `json:"n"`
}

// jsonFloat is a float64 whose JSON form is null when it is not finite
// (JSON has no NaN or infinity), so printing a result cannot fail.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// runEval scores a model on a labelled data file.
func runEval(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("eval",
		"rfkit eval -model FILE -data FILE [-format csv|libsvm] [-label COL] [-json]",
		"Prints the accuracy, a fraction in [0, 1] (classification), or the RMSE\n"+
			"(regression) of the model on the labelled data file. For a classifier every\n"+
			"label must be one of the model's classes; a row whose prediction is not a\n"+
			"number (inputs beyond what the model can represent) is an error, never a\n"+
			"silent miss.")
	var d dataFlags
	modelPath := fs.String("model", "", "model `FILE` written by rfkit train")
	d.registerModelData(fs)
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
	model, err := loadModel(*modelPath)
	if err != nil {
		return err
	}
	ds, err := d.loadFor(model.NumInputs(), model.file.Header.Names, true)
	if err != nil {
		return err
	}
	r := evalResult{Metric: "accuracy", N: ds.N}
	classify := model.Task() == learners.Binary
	if classify {
		if err := checkClasses(d.path, ds.Y, model.classes()); err != nil {
			return err
		}
	} else {
		r.Metric = "rmse"
	}
	pred, err := predictAll(model, ds)
	if err != nil {
		return fmt.Errorf("%s: %w", d.path, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var sum float64
	for i, p := range pred {
		switch {
		case classify && p == ds.Y[i]:
			sum++
		case !classify:
			sum += (p - ds.Y[i]) * (p - ds.Y[i])
		}
	}
	if classify {
		r.Value = jsonFloat(sum / float64(ds.N))
	} else {
		r.Value = jsonFloat(math.Sqrt(sum / float64(ds.N)))
	}
	if *asJSON {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s %.6g (n=%d)\n", r.Metric, float64(r.Value), r.N)
	return nil
}

// predictAll predicts every row of ds. A prediction that is not finite (a
// NaN class label, an infinite value: inputs so extreme that the model's
// arithmetic overflows) is an error naming the row, never an output.
func predictAll(model learners.Model, ds *dataset.Dataset) ([]float64, error) {
	pred := make([]float64, ds.N)
	if err := model.PredictBatch(pred, matrix(ds)); err != nil {
		var re *learners.RowError
		if !errors.As(err, &re) || re.Input >= 0 {
			return nil, err
		}
		pred[re.Row] = re.Value // the library stops at the row: report it below
	}
	for i, p := range pred {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return nil, fmt.Errorf("data row %d: the prediction is %v (inputs too large for the model's arithmetic?); no prediction for it", i+1, p)
		}
	}
	return pred, nil
}

// checkClasses reports the labels of y that are not among the model's
// classes: eval would count every such row as wrong, a score that means
// nothing (labels 0/1 against a −1/+1 model, regression targets against a
// classifier).
func checkClasses(path string, y, classes []float64) error {
	var unknown []float64
	n := 0
	for _, v := range y {
		if slices.Contains(classes, v) {
			continue
		}
		n++
		if !slices.Contains(unknown, v) && len(unknown) < 5 {
			unknown = append(unknown, v)
		}
	}
	if n == 0 {
		return nil
	}
	what := fmt.Sprintf("label %s is", fmtValues(unknown))
	if len(unknown) > 1 {
		what = fmt.Sprintf("labels %s are", fmtValues(unknown))
	}
	return fmt.Errorf("%s: %s not a class of the model (its classes: %s; %d of %d rows); relabel the file or use the model it belongs to",
		path, what, fmtValues(classes), n, len(y))
}

// fmtValues formats vs as "a, b, c".
func fmtValues(vs []float64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(s, ", ")
}
