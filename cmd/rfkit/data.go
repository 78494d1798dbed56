package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
)

// Data file formats.
const (
	formatCSV    = "csv"
	formatLIBSVM = "libsvm"
)

// libsvmExts are the file extensions read as LIBSVM by default.
var libsvmExts = map[string]bool{".libsvm": true, ".svm": true, ".svmlight": true}

// dataFlags are the flags that name a data file and how to read it.
type dataFlags struct {
	path, format, label string
}

func (d *dataFlags) register(fs *flagSet) {
	fs.StringVar(&d.path, "data", "", "the data `FILE`: CSV with a header row, or LIBSVM/svmlight")
	fs.StringVar(&d.format, "format", "", "the file format, `csv|libsvm`; by default .csv files are CSV and .libsvm, .svm, .svmlight files LIBSVM")
	fs.StringVar(&d.label, "label", "", "the label `column` of a CSV file: a header name or a 0-based index (negative counts from the end); by default the last column named y, else the last column")
}

// check validates the flags without reading the file.
func (d *dataFlags) check() error {
	if d.path == "" {
		return usagef("-data is required")
	}
	f, err := d.fileFormat()
	if err != nil {
		return err
	}
	if f == formatLIBSVM && d.label != "" {
		return usagef("-label applies to CSV files; a LIBSVM line starts with its label")
	}
	return nil
}

// fileFormat returns -format, or the format the extension of -data implies.
func (d *dataFlags) fileFormat() (string, error) {
	switch strings.ToLower(d.format) {
	case formatCSV:
		return formatCSV, nil
	case formatLIBSVM, "svmlight":
		return formatLIBSVM, nil
	case "":
	default:
		return "", usagef("-format %q: want csv or libsvm", d.format)
	}
	ext := strings.ToLower(filepath.Ext(d.path))
	switch {
	case ext == ".csv":
		return formatCSV, nil
	case libsvmExts[ext]:
		return formatLIBSVM, nil
	}
	return "", usagef("cannot tell the format of %s from its extension; add -format csv or -format libsvm", d.path)
}

// loadLabelled reads a data file whose rows carry a label (train, cv).
func (d *dataFlags) loadLabelled() (*dataset.Dataset, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	f, _ := d.fileFormat()
	if f == formatLIBSVM {
		return dataset.LoadLIBSVM(d.path, dataset.LIBSVMOptions{})
	}
	return dataset.LoadCSV(d.path, dataset.CSVOptions{Label: d.label})
}

// loadFor reads a data file for a model with inputs features. A CSV file
// with exactly inputs columns has no label column (ds.Y is nil); one with a
// column more has its label column chosen by -label (or the default rule).
// A LIBSVM file always has labels; its feature indices must not exceed
// inputs. With needLabels, a file without labels is an error.
func (d *dataFlags) loadFor(inputs int, needLabels bool) (*dataset.Dataset, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	var ds *dataset.Dataset
	f, _ := d.fileFormat()
	if f == formatLIBSVM {
		var err error
		ds, err = dataset.LoadLIBSVM(d.path, dataset.LIBSVMOptions{NumFeatures: inputs})
		if err != nil {
			return nil, err
		}
	} else {
		cols, err := csvColumns(d.path)
		if err != nil {
			return nil, err
		}
		opt := dataset.CSVOptions{Label: d.label}
		switch {
		case cols == inputs && d.label != "":
			return nil, fmt.Errorf("%s: -label %s given, but the file has exactly the model's %d input columns, so no label column", d.path, d.label, inputs)
		case cols == inputs:
			opt = dataset.CSVOptions{NoLabel: true}
		case cols != inputs+1:
			return nil, fmt.Errorf("%s: %d columns, but the model takes %d inputs (a file has %d columns, or %d with a label column)", d.path, cols, inputs, inputs, inputs+1)
		}
		if ds, err = dataset.LoadCSV(d.path, opt); err != nil {
			return nil, err
		}
	}
	if needLabels && ds.Y == nil {
		return nil, fmt.Errorf("%s: no label column (the file has exactly the model's %d input columns)", d.path, inputs)
	}
	return ds, nil
}

// csvColumns returns the number of fields in the header row of a CSV file.
func csvColumns(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if b, err := br.Peek(3); err == nil && string(b) == "\uFEFF" {
		br.Discard(3)
	}
	rec, err := csv.NewReader(br).Read()
	if errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("%s: dataset: empty input (no header row)", path)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: dataset: %w", path, err)
	}
	return len(rec), nil
}

// matrix is ds's features as a featmap.Matrix.
func matrix(ds *dataset.Dataset) featmap.Matrix { return matrixOf(ds.N, ds.D, ds.X) }

// matrixOf is the n×d row-major X as a featmap.Matrix.
func matrixOf(n, d int, X []float64) featmap.Matrix { return featmap.Dense(n, d, X) }

// distinct counts the distinct values of y, stopping at limit.
func distinct(y []float64, limit int) int {
	seen := map[float64]bool{}
	for _, v := range y {
		if !seen[v] {
			seen[v] = true
			if len(seen) >= limit {
				break
			}
		}
	}
	return len(seen)
}
