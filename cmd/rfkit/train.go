package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// runTrain fits a model on a data file and writes the model file.
func runTrain(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("train",
		"rfkit train -method NAME -data FILE [-format csv|libsvm] [-label COL] [-weight COL] [-task auto|binary|multiclass|regression] [-param name=value]... [-seed N] -model OUT",
		"Fits the method on every row of the data file and writes the model file OUT\n"+
			"atomically (a temporary file in the same directory, renamed when complete;\n"+
			"nothing is left behind on an error, Ctrl-C or SIGTERM; an existing OUT keeps\n"+
			"its permissions, a symbolic link is followed, a device is written through).\n"+
			"A progress bar shows on a terminal, a progress line every few seconds\n"+
			"otherwise. rfkit train -method NAME -h lists the method's parameters.\n\n"+
			"-task auto (the default) is binary classification for a label column of two\n"+
			"distinct values, multiclass for 3 to 20 distinct integers, regression\n"+
			"otherwise; a method that cannot do the task is a usage error naming the\n"+
			"methods that can. -weight COL takes sample weights from a CSV column (not a\n"+
			"feature; finite, ≥ 0; 0 drops a row; integer weights repeat rows for the\n"+
			"learners that take no weights, others are an error).\n\n"+
			"Size limits (each flag raises its own): a training file has at most\n"+
			"-max-inputs feature columns, and what the method states its fit allocates\n"+
			"beside the rows (random features, landmarks × k, candidates or rounds ×\n"+
			"the inputs) is at most -max-size float64 values, checked before anything\n"+
			"large is allocated.")
	var d dataFlags
	var f fitFlags
	f.register(fs)
	d.registerTraining(fs)
	d.registerWeight(fs)
	out := fs.String("model", "", "output model `FILE`")
	quiet := fs.Bool("quiet", false, "no progress display and no summary line")
	resume := registerResume(fs)
	ignoreNames := fs.Bool("ignore-names", false, "with -resume: continue even if the data file's header names differ from the feature names stored in the model")
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
	if *out == "" {
		return usagef("-model is required")
	}
	if err := d.check(); err != nil {
		return err
	}
	// -resume M -model M continues a model in place: M is read whole
	// before the new model replaces it.
	if err := notInput("model", *out, d.path); err != nil {
		return err
	}
	ds, err := d.loadLabelled()
	if err != nil {
		return err
	}
	var cfg any
	names, namesErr := featureNames(ds)
	if *resume != "" && d.weights != nil {
		return usagef("-resume continues an online learner row by row; it takes no -weight")
	}
	if *resume != "" {
		var old []string
		cfg, old, err = resumeConfig(m, &f, fs, *resume, ds.D)
		if err == nil && !*ignoreNames {
			if err = matchNames(ds, old); err != nil {
				err = fmt.Errorf("%s: -resume %s: %w", d.path, *resume, err)
			}
		}
		if old != nil { // the continued model keeps the names it has
			names, namesErr = old, nil
		}
	} else {
		cfg, _, err = f.config(m, fs, ds.Y, ds.LabelName)
	}
	if err != nil {
		return err
	}
	if err := f.checkSize(cfg, ds.Y, ds.D); err != nil {
		return err
	}

	bar := newProgress(e.stderr, *quiet, "train "+m.Name, 1)
	start := time.Now()
	model, err := cv.FitWeighted(f.fitContext(ctx), m, matrix(ds), ds.Y, d.weights, cfg, bar.callback())
	bar.done(err == nil)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	// The header's feature names go into the model, so that predict and
	// eval can refuse a file whose columns are not these.
	if names != nil {
		named, err := learners.WithFeatureNames(model, names)
		if err == nil {
			model = named
		}
		namesErr = err
	}
	if namesErr != nil && !*quiet {
		fmt.Fprintf(e.stderr, "rfkit: warning: the model stores no feature names (%v), so predict and eval cannot check a file's columns\n", namesErr)
	}
	size, head, err := writeModel(ctx, *out, model)
	if err != nil {
		return err
	}
	if *quiet {
		return nil
	}
	// The model's own task: a regression-only method fits binary labels
	// as values.
	task := cv.TaskOf(model)
	fit, metric, err := trainingFit(ctx, model, matrix(ds), ds.Y, d.weights)
	if err != nil {
		return err
	}
	what := taskName(task)
	if task == learners.Multiclass {
		what = fmt.Sprintf("multiclass (%d classes)", len(cv.ClassesOf(model)))
	}
	check := ""
	if s, ok := model.(interface{ FitStats() learners.FitStats }); ok && s.FitStats().HeldOutRows > 0 {
		check = "; " + s.FitStats().String()
	}
	fmt.Fprintf(e.stdout, "%s: %s on %d rows × %d inputs in %v, training %s %s%s; wrote %s (%d bytes)\n",
		trainedName(m.Name, head), what, ds.N, ds.D, elapsed.Round(time.Millisecond), metric, fit, check, *out, size)
	return nil
}

// trainedName is the method the model file data (its first bytes) says was trained: a
// parameter can select another variant of the method (-method gbrff2
// -param variant=gbrff1 trains GBRFF1), and the summary must not claim
// the one asked for.
func trainedName(asked string, data []byte) string {
	h, err := modelfile.ReadHeader(data)
	if err != nil || h.Method == asked {
		return asked
	}
	return fmt.Sprintf("%s (asked for %s; a parameter selected %s)", h.Method, asked, h.Method)
}

// trainingFit is the (weighted) accuracy or RMSE of model on its training
// data, for the summary line; the error of a cancelled ctx (Ctrl-C while
// it predicts every training row) stops the command.
func trainingFit(ctx context.Context, model learners.Model, X featmap.Matrix, y, w []float64) (string, string, error) {
	metric := "accuracy"
	if model.Task() == learners.Regression {
		metric = "RMSE"
	}
	r, err := cv.EvaluateContext(ctx, model, X, y, w)
	if ctx.Err() != nil {
		return "", metric, ctx.Err()
	}
	if err != nil {
		return "n/a", metric, nil
	}
	v := r.Accuracy
	if metric == "RMSE" {
		v = r.RMSE
	}
	return fmt.Sprintf("%.4g", v), metric, nil
}
