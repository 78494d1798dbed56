package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
)

// runPredict writes one prediction per row of a data file.
func runPredict(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("predict",
		"rfkit predict -model FILE -data FILE [-format csv|libsvm] [-label COL] [-out FILE]",
		"Writes one prediction per row of the data file, one per line: a class label\n"+
			"in the data set's own label values (classification) or a value (regression).\n"+
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
	ds, err := d.loadFor(model.NumInputs(), model.file.Header.Names, false)
	if err != nil {
		return err
	}
	pred, err := predictAll(model, ds)
	if err != nil {
		return fmt.Errorf("%s: %w", d.path, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	write := func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		var buf []byte
		for _, v := range pred {
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
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
	return writeFileAtomic(ctx, *out, write)
}
