package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// runCV runs a k-fold cross-validated grid search.
// maxFolds bounds -folds (each fold is a fit; more folds than rows is an
// error of the search itself).
const maxFolds = 100_000

func runCV(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("cv",
		"rfkit cv -method NAME -data FILE -grid name=v1,v2,... [-grid ...] [-folds 5] [-metric NAME] [-weight COL] [-param name=value]... [-seed N] [-json] [-model OUT]",
		"Scores every combination of the -grid values by k-fold cross-validation on\n"+
			"the data file (stratified folds for classification, binary and multiclass,\n"+
			"random folds for regression; the protocol of the papers' model selection),\n"+
			"and prints the mean ± standard deviation over the folds of the metric of\n"+
			"each setting (by default the accuracy for classification, the RMSE for\n"+
			"regression) and the best setting. -param fixes the parameters that do not\n"+
			"vary; -seed also seeds the folds. -weight COL weights the rows (in the fits,\n"+
			"the folds, which then share out each class's weight, and the scores).\n"+
			"-model OUT refits the best setting on every row and writes it as train\n"+
			"does (atomically). -json prints one JSON object instead of the table.")
	var d dataFlags
	var f fitFlags
	var g grid
	f.register(fs)
	d.registerTraining(fs)
	d.registerWeight(fs)
	fs.Var(&g, "grid", "hyper-parameter `name=v1,v2,...` to search, repeatable (the grid is the Cartesian product)")
	folds := fs.intRange("folds", 5, 2, maxFolds, "number of folds `k`")
	metric := fs.String("metric", "", "rank by this `metric`: accuracy, logloss, auc (binary) or macro-f1 for classification, rmse, mae or r2 for regression (default accuracy or rmse)")
	asJSON := fs.Bool("json", false, "print one JSON object: the setup, every setting's fold scores, mean and std, and the best")
	out := fs.String("model", "", "refit the best setting on all rows and write the model to `OUT`")
	quiet := fs.Bool("quiet", false, "no progress bar")
	// -method NAME -h leads with NAME's parameters; without -method the
	// list of methods follows the flags.
	if methodFromArgs(args) != "" {
		fs.lead = func(w io.Writer) { methodHelp(w, args) }
	} else {
		fs.extra = func(w io.Writer) { methodHelp(w, args) }
	}
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
	if _, err := cv.Expand(m.NewConfig(), g.values()); err != nil {
		return &usageError{err.Error()}
	}
	switch cv.Metric(*metric) {
	case "", cv.MetricAccuracy, cv.MetricLogLoss, cv.MetricAUC, cv.MetricMacroF1, cv.MetricRMSE, cv.MetricMAE, cv.MetricR2:
	default:
		return usagef("-metric %q: want accuracy, logloss, auc, macro-f1, rmse, mae or r2", *metric)
	}
	if err := d.check(); err != nil {
		return err
	}
	if err := notInput("model", *out, d.path); err != nil {
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
	if *metric != "" && !slices.Contains(cv.Metrics(task), cv.Metric(*metric)) {
		return usagef("-metric %s does not apply to %s (metrics: %s)", *metric, taskName(task), metricNames(task))
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
		if err := f.checkSize(v.Config, ds.Y, ds.D); err != nil {
			return fmt.Errorf("grid setting %s: %w", settingName(v), err)
		}
	}

	steps := len(variants) * *folds
	if *out != "" {
		steps++
	}
	bar := newProgress(e.stderr, *quiet || *asJSON, "cv "+m.Name, steps)
	checkTask := func(model learners.Model, err error) (learners.Model, error) {
		bar.step()
		if err == nil && cv.TaskOf(model) != task {
			return nil, fmt.Errorf("%s fitted a %s model for a %s search; give -task %s", m.Name, taskName(cv.TaskOf(model)), taskName(task), taskName(cv.TaskOf(model)))
		}
		return model, err
	}
	cands := cv.Candidates(m, variants)
	for i := range cands {
		fit, fitW := cands[i].Fit, cands[i].FitWeighted
		cands[i].Fit = func(ctx context.Context, X featmap.Matrix, y []float64) (learners.Model, error) {
			return checkTask(fit(ctx, X, y))
		}
		cands[i].FitWeighted = func(ctx context.Context, X featmap.Matrix, y, w []float64) (learners.Model, error) {
			return checkTask(fitW(ctx, X, y, w))
		}
	}
	res, err := cv.Search(f.fitContext(ctx), matrix(ds), ds.Y, cands, cv.Options{Task: task, Folds: *folds, Seed: f.seed, Weights: d.weights, Metric: cv.Metric(*metric)})
	var saved *savedModel
	if err == nil && *out != "" {
		saved, err = refit(f.fitContext(ctx), m, ds, d.weights, variants[res.Best], *out, bar)
	}
	bar.done(err == nil)
	if err != nil {
		return err
	}
	if *asJSON {
		return printCVJSON(e.stdout, m.Name, d.path, ds.N, task, *folds, d.weights != nil, variants, res, saved)
	}
	printCV(e.stdout, m.Name, d.path, ds.N, task, *folds, variants, res)
	if saved != nil {
		fmt.Fprintf(e.stdout, "refit %s on all %d rows; wrote %s (%d bytes)\n", settingName(variants[res.Best]), ds.N, saved.path, saved.size)
	}
	return nil
}

// savedModel is the model cv -model wrote.
type savedModel struct {
	path string
	size int
}

// refit fits the setting v on every row of ds (with the weights) and
// writes the model to path atomically, with the feature names, as train
// does.
func refit(ctx context.Context, m learners.Method, ds *dataset.Dataset, w []float64, v cv.Variant, path string, bar *progress) (*savedModel, error) {
	model, err := cv.FitWeighted(ctx, m, matrix(ds), ds.Y, w, v.Config, nil)
	bar.step()
	if err != nil {
		return nil, fmt.Errorf("refit %s on all rows: %w", settingName(v), err)
	}
	if names, err := featureNames(ds); err == nil && names != nil {
		if named, err := learners.WithFeatureNames(model, names); err == nil {
			model = named
		}
	}
	size, _, err := writeModel(ctx, path, model)
	if err != nil {
		return nil, err
	}
	return &savedModel{path: path, size: int(size)}, nil
}

func metricNames(t learners.Task) string {
	var s []string
	for _, m := range cv.Metrics(t) {
		s = append(s, string(m))
	}
	return strings.Join(s, ", ")
}

// cvJSON is the -json output of cv. Scores are the metric's own values
// (an RMSE is positive), null when not a number.
type cvJSON struct {
	Method   string      `json:"method"`
	Data     string      `json:"data"`
	Rows     int         `json:"rows"`
	Task     string      `json:"task"`
	Folds    int         `json:"folds"`
	Split    string      `json:"split"` // "stratified" or "random"
	Metric   string      `json:"metric"`
	Lower    bool        `json:"lower_is_better"`
	Weighted bool        `json:"weighted"`
	Settings []cvSetting `json:"settings"`
	Best     cvSetting   `json:"best"`
	Model    string      `json:"model,omitempty"` // the refitted model's file, with -model
	Bytes    int         `json:"model_bytes,omitempty"`
}

type cvSetting struct {
	Setting string            `json:"setting"`
	Params  map[string]string `json:"params"`
	Mean    jsonFloat         `json:"mean"`
	Std     jsonFloat         `json:"std"`
	Scores  []jsonFloat       `json:"scores"`
}

func printCVJSON(w io.Writer, method, path string, n int, task learners.Task, folds int, weighted bool, variants []cv.Variant, res cv.Result, saved *savedModel) error {
	sign := 1.0
	if res.Metric.Lower() {
		sign = -1
	}
	out := cvJSON{Method: method, Data: path, Rows: n, Task: taskName(task), Folds: folds, Split: "stratified",
		Metric: string(res.Metric), Lower: res.Metric.Lower(), Weighted: weighted}
	if task == learners.Regression {
		out.Split = "random"
	}
	for i, v := range variants {
		s := cvSetting{Setting: settingName(v), Params: map[string]string{}}
		if v.Name != "" {
			for _, kv := range strings.Split(v.Name, ",") {
				k, val, _ := strings.Cut(kv, "=")
				s.Params[k] = val
			}
		}
		mean, std := meanStd(res.Scores[i], sign)
		s.Mean, s.Std = jsonFloat(mean), jsonFloat(std)
		for _, v := range res.Scores[i] {
			s.Scores = append(s.Scores, jsonFloat(sign*v))
		}
		out.Settings = append(out.Settings, s)
	}
	out.Best = out.Settings[res.Best]
	if saved != nil {
		out.Model, out.Bytes = saved.path, saved.size
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n", b)
	return nil
}

// printCV prints the table of a grid search and its best setting.
func printCV(w io.Writer, method, path string, n int, task learners.Task, folds int, variants []cv.Variant, res cv.Result) {
	metric, sign, kind := string(res.Metric), 1.0, "stratified"
	if res.Metric.Lower() {
		sign = -1
	}
	if res.Metric == cv.MetricRMSE {
		metric = "RMSE"
	}
	if task == learners.Regression {
		kind = "random"
	}
	fmt.Fprintf(w, "%s on %s: %d rows, %s, %d-fold %s cross-validation, %s (mean ± std over folds)\n",
		method, path, n, taskName(task), folds, kind, metric)
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
