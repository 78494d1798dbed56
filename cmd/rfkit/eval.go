package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// evalResult is the -json output of eval: the main metric as metric and
// value (accuracy or rmse, as before), and every metric of the task. A
// metric that does not apply to the task is absent; one that applies but
// is undefined here (log loss of a model without probabilities, AUC of data
// with one class) is null.
type evalResult struct {
	Metric    string      `json:"metric"` // "accuracy" or "rmse"
	Value     jsonFloat   `json:"value"`
	N         int         `json:"n"`
	Task      string      `json:"task,omitempty"`
	Weight    *jsonFloat  `json:"weight,omitempty"` // total weight, with -weight
	Classes   []float64   `json:"classes,omitempty"`
	Accuracy  *jsonFloat  `json:"accuracy,omitempty"`
	LogLoss   *jsonFloat  `json:"log_loss,omitempty"`
	AUC       *jsonFloat  `json:"auc,omitempty"` // binary
	MacroF1   *jsonFloat  `json:"macro_f1,omitempty"`
	Confusion [][]float64 `json:"confusion,omitempty"` // [true][predicted], in the order of classes
	RMSE      *jsonFloat  `json:"rmse,omitempty"`
	MAE       *jsonFloat  `json:"mae,omitempty"`
	R2        *jsonFloat  `json:"r2,omitempty"`
	// NonFinite names each metric printed as null because its value is
	// not a number ("NaN": undefined here) or infinite ("+Inf": the
	// errors overflow float64), so that a null is never silent.
	NonFinite map[string]string `json:"non_finite,omitempty"`
}

// markNonFinite fills r.NonFinite from the metrics of r.
func (r *evalResult) markNonFinite() {
	for name, v := range map[string]*jsonFloat{"value": &r.Value, "weight": r.Weight, "accuracy": r.Accuracy, "log_loss": r.LogLoss,
		"auc": r.AUC, "macro_f1": r.MacroF1, "rmse": r.RMSE, "mae": r.MAE, "r2": r.R2} {
		if v == nil || xmath.Finite(float64(*v)) {
			continue
		}
		if r.NonFinite == nil {
			r.NonFinite = map[string]string{}
		}
		r.NonFinite[name] = strconv.FormatFloat(float64(*v), 'g', -1, 64)
	}
}

func jf(v float64) *jsonFloat { f := jsonFloat(v); return &f }

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
		"rfkit eval -model FILE -data FILE [-format csv|libsvm] [-label COL] [-weight COL] [-json]",
		"Prints every metric of the model on the labelled data file: for a\n"+
			"classifier the accuracy (a fraction in [0, 1]), the log loss (when the model\n"+
			"estimates probabilities), the AUC (binary), the macro-F1 and the confusion\n"+
			"matrix; for a regression the RMSE, MAE and R². -weight COL weights the rows\n"+
			"by a CSV column (not an input of the model). For a classifier every label\n"+
			"must be one of the model's classes; a row whose prediction is not a number\n"+
			"(inputs beyond what the model can represent) is an error, never a silent\n"+
			"miss. -json prints one object with all of them (null for a value that is\n"+
			"not a number, such as the AUC of data with one class).")
	var d dataFlags
	modelPath := fs.String("model", "", "model `FILE` written by rfkit train")
	d.registerModelData(fs)
	d.registerWeight(fs)
	asJSON := fs.Bool("json", false, `print one JSON object: {"metric": "accuracy"|"rmse", "value": …, "n": rows, "task": …, and every metric of the task}`)
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
	task := cv.TaskOf(model.Model)
	if task != learners.Regression {
		if err := checkClasses(d.path, ds.Y, model.classes()); err != nil {
			return err
		}
	}
	o, err := modelOutputs(ctx, model, ds)
	if err != nil {
		return fmt.Errorf("%s: %w", d.path, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	rep, err := o.Report(ds.Y, d.weights)
	if err != nil {
		return fmt.Errorf("%s: %w", d.path, err)
	}
	r := evalResult{Metric: "accuracy", Value: jsonFloat(rep.Accuracy), N: ds.N, Task: taskName(task)}
	if d.weights != nil {
		r.Weight = jf(rep.Weight)
	}
	if task == learners.Regression {
		r.Metric, r.Value = "rmse", jsonFloat(rep.RMSE)
		r.RMSE, r.MAE, r.R2 = jf(rep.RMSE), jf(rep.MAE), jf(rep.R2)
	} else {
		r.Classes, r.Confusion = rep.Classes, rep.Confusion
		r.Accuracy, r.LogLoss, r.MacroF1 = jf(rep.Accuracy), jf(rep.LogLoss), jf(rep.MacroF1)
		if task == learners.Binary {
			r.AUC = jf(rep.AUC)
		}
	}
	r.markNonFinite()
	if *asJSON {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
		return nil
	}
	printEval(e.stdout, r)
	return nil
}

// naReason says why the metric name of r is not a number.
func naReason(name string, r evalResult) string {
	switch name {
	case "log_loss":
		return "the model estimates no probabilities"
	case "auc":
		return "the data has one class"
	case "r2":
		if r.RMSE != nil && math.IsInf(float64(*r.RMSE), 0) {
			return "the squared errors overflow float64"
		}
		return "the labels have no variance"
	}
	return "undefined on these data"
}

// printEval prints the metrics of r, one per line, the main one first as
// "accuracy 0.97 (n=200)", then the confusion matrix of a classifier.
func printEval(w io.Writer, r evalResult) {
	n := fmt.Sprintf("n=%d", r.N)
	if r.Weight != nil {
		n += fmt.Sprintf(", weight %.6g", float64(*r.Weight))
	}
	fmt.Fprintf(w, "%s %.6g (%s)\n", r.Metric, float64(r.Value), n)
	for _, m := range []struct {
		name string
		v    *jsonFloat
	}{{"log_loss", r.LogLoss}, {"auc", r.AUC}, {"macro_f1", r.MacroF1}, {"mae", r.MAE}, {"r2", r.R2}} {
		switch {
		case m.v == nil:
		case math.IsNaN(float64(*m.v)):
			fmt.Fprintf(w, "%s n/a (%s)\n", m.name, naReason(m.name, r))
		default:
			fmt.Fprintf(w, "%s %.6g\n", m.name, float64(*m.v))
		}
	}
	if r.Confusion == nil {
		return
	}
	fmt.Fprintln(w, "confusion (rows: true class, columns: predicted)")
	cells := make([][]string, len(r.Classes)+1)
	cells[0] = []string{""}
	for _, c := range r.Classes {
		cells[0] = append(cells[0], strconv.FormatFloat(c, 'g', -1, 64))
	}
	for i, row := range r.Confusion {
		cells[i+1] = []string{strconv.FormatFloat(r.Classes[i], 'g', -1, 64)}
		for _, v := range row {
			cells[i+1] = append(cells[i+1], strconv.FormatFloat(v, 'g', 6, 64))
		}
	}
	width := 0
	for _, row := range cells {
		for _, c := range row {
			width = max(width, len(c))
		}
	}
	for _, row := range cells {
		var b strings.Builder
		for _, c := range row {
			fmt.Fprintf(&b, "  %*s", width, c)
		}
		fmt.Fprintln(w, b.String())
	}
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
