package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/internal/atomicfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// -output values of predict.
const (
	outLabel = "label"
	outProba = "proba"
	outScore = "score"
)

// modelOutputs is cv.PredictContext on every row of ds (stopping when ctx
// is cancelled), with a row the model cannot predict reported as
// predictAll does ("data row N", 1-based).
func modelOutputs(ctx context.Context, model *loadedModel, ds *dataset.Dataset) (*cv.Outputs, error) {
	o, err := cv.PredictContext(ctx, model.Model, matrix(ds))
	var re *learners.RowError
	if errors.As(err, &re) {
		if re.Input >= 0 {
			return nil, fmt.Errorf("data row %d: input index %d is %v", re.Row+1, re.Input, re.Value)
		}
		return nil, fmt.Errorf("data row %d: the prediction is %v (inputs too large for the model's arithmetic?); no prediction for it", re.Row+1, re.Value)
	}
	return o, err
}

// runPredict writes one prediction per row of a data file.
func runPredict(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("predict",
		"rfkit predict -model FILE -data FILE [-format csv|libsvm] [-label COL] [-output label|proba|score] [-out FILE]",
		"Writes one prediction per row of the data file, one per line: a class label\n"+
			"in the data set's own label values (classification) or a value (regression).\n"+
			"-output proba writes CSV instead: a header naming the classes (p_1,p_2,p_3\n"+
			"for classes 1, 2, 3) and one row of class probabilities per data row, for a\n"+
			"classifier that estimates them. -output score writes a binary model's score\n"+
			"(the margin: the larger class when ≥ 0) or a regression's value; a multiclass\n"+
			"model has no single score (use proba).\n"+
			"A CSV file with exactly the model's number of input columns has no label\n"+
			"column; one with a column more has its label column (chosen by -label, by\n"+
			"default the last column named y, else the last column) ignored, whatever it\n"+
			"holds (empty, ?, text). The header must name the model's features in\n"+
			"order when the model stores names (from its CSV training file), unless\n"+
			"-ignore-names. A LIBSVM\n"+
			"line's label is ignored. A row whose prediction is not a number (inputs\n"+
			"beyond what the model can represent) is an error.")
	var d dataFlags
	modelPath := fs.String("model", "", "model `FILE` written by rfkit train")
	d.registerModelData(fs)
	out := fs.String("out", "", "write the predictions to `FILE` (atomically) instead of stdout")
	output := fs.String("output", outLabel, "what to write, `label|proba|score`: the predicted label or value, the class probabilities (CSV with a header), or the raw score")
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	switch *output {
	case outLabel, outProba, outScore:
	default:
		return usagef("-output %q: want label, proba or score", *output)
	}
	if *modelPath == "" {
		return usagef("-model is required")
	}
	if err := d.check(); err != nil {
		return err
	}
	if err := notInput("out", *out, d.path, *modelPath); err != nil {
		return err
	}
	model, err := loadModel(*modelPath)
	if err != nil {
		return err
	}
	ds, err := d.loadFor(model.NumInputs(), model.file.Header.Names, false)
	if err != nil {
		return err
	}
	task := cv.TaskOf(model.Model)
	var header []string
	var cols int
	var values []float64
	switch *output {
	case outLabel:
		values, err = predictAll(model, ds)
		cols = 1
	case outProba:
		if task == learners.Regression {
			return usagef("-output proba: %s is a regression model; it has no class probabilities", *modelPath)
		}
		var o *cv.Outputs
		if o, err = modelOutputs(ctx, model, ds); err == nil && o.Prob == nil {
			return usagef("-output proba: the %s model %s estimates no class probabilities (use -output label or score)", model.file.Header.Method, *modelPath)
		}
		if err == nil {
			values, cols = o.Prob, len(o.Classes)
			for _, c := range o.Classes {
				header = append(header, "p_"+strconv.FormatFloat(c, 'g', -1, 64))
			}
		}
	case outScore:
		if task == learners.Multiclass {
			return usagef("-output score: %s is a multiclass model, which has no single score (use -output proba)", *modelPath)
		}
		var o *cv.Outputs
		if o, err = modelOutputs(ctx, model, ds); err == nil {
			values, cols = o.Score, 1
			if task == learners.Regression {
				values = o.Pred
			}
			if values == nil {
				return usagef("-output score: the %s model %s has no score (use -output label)", model.file.Header.Method, *modelPath)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", d.path, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	write := func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		var buf []byte
		if header != nil {
			buf = append(buf, strings.Join(header, ",")...)
			buf = append(buf, '\n')
		}
		for i, v := range values {
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			if (i+1)%cols == 0 {
				buf = append(buf, '\n')
				if _, err := bw.Write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			} else {
				buf = append(buf, ',')
			}
		}
		return bw.Flush()
	}
	if *out == "" {
		if err := write(e.stdout); err != nil {
			return fmt.Errorf("write stdout: %w", err)
		}
		return nil
	}
	return atomicfile.Write(ctx, *out, write)
}
