package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/modelfile"
)

// Data file formats.
const (
	formatCSV    = "csv"
	formatLIBSVM = "libsvm"
)

// libsvmExts are the file extensions read as LIBSVM by default.
var libsvmExts = map[string]bool{".libsvm": true, ".svm": true, ".svmlight": true}

// Limits of the data the command reads. A file beyond them fails with an
// error naming the limit and the flag that raises it, before the matrix is
// allocated.
const (
	// defaultMaxInputs bounds the feature columns of a training file (CSV
	// columns, LIBSVM indices): -max-inputs.
	defaultMaxInputs = 1 << 17
	// maxMaxInputs bounds -max-inputs: a LIBSVM row of more inputs would
	// alone exceed libsvmMaxBytes.
	maxMaxInputs = libsvmMaxBytes / 8
	// libsvmMaxBytes bounds a LIBSVM file's dense matrix (1 GiB).
	libsvmMaxBytes = 1 << 30
)

// dataFlags are the flags that name a data file and how to read it.
type dataFlags struct {
	path, format, label string
	weight              string    // -weight (train, cv, eval)
	ignoreNames         bool      // -ignore-names (predict, eval, importance)
	maxInputs           int       // -max-inputs (train, cv)
	weights             []float64 // the -weight column's values, after loading; nil without -weight
}

func (d *dataFlags) register(fs *flagSet) {
	fs.StringVar(&d.path, "data", "", "the data `FILE`: CSV with a header row, or LIBSVM/svmlight; - reads stdin (with -format)")
	fs.StringVar(&d.format, "format", "", "the file format, `csv|libsvm`; by default .csv files are CSV and .libsvm, .svm, .svmlight files LIBSVM")
	fs.StringVar(&d.label, "label", "", "the label `column` of a CSV file: a header name or a 0-based index (negative counts from the end); by default the last column named y, else the last column")
}

// registerTraining adds the flags of a training data file.
func (d *dataFlags) registerTraining(fs *flagSet) {
	d.register(fs)
	fs.intRangeVar(&d.maxInputs, "max-inputs", defaultMaxInputs, 0, maxMaxInputs, "refuse a data file with more than `N` feature columns (CSV) or a feature index above N (LIBSVM), before reading its rows")
}

// registerWeight adds -weight.
func (d *dataFlags) registerWeight(fs *flagSet) {
	fs.StringVar(&d.weight, "weight", "", "the sample weight `column` of a CSV file (a header name or a 0-based index, negative from the end), not a feature: weights are finite and ≥ 0, 0 drops a row")
}

// registerModelData adds the flags of a data file read for a model.
func (d *dataFlags) registerModelData(fs *flagSet) {
	d.register(fs)
	fs.BoolVar(&d.ignoreNames, "ignore-names", false, "use a CSV file's columns by position even if its header names differ from the feature names stored in the model, or (for a model without names) a file with as many columns as the model has inputs has a column named y (it is then a feature)")
}

// check validates the flags without reading the file.
func (d *dataFlags) check() error {
	d.label = strings.TrimSpace(d.label)
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
	d.weight = strings.TrimSpace(d.weight)
	if f == formatLIBSVM && d.weight != "" {
		return usagef("-weight applies to CSV files; a LIBSVM file has no weight column")
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

// open opens the data file; "-" is stdin.
func (d *dataFlags) open() (io.ReadCloser, error) {
	if d.path == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	f, err := os.Open(d.path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// loadLabelled reads a data file whose rows carry a label (train, cv). A
// CSV header with more than -max-inputs feature columns, or a LIBSVM index
// above it, is refused before the rows are read.
func (d *dataFlags) loadLabelled() (*dataset.Dataset, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	maxInputs := d.maxInputs
	if maxInputs == 0 {
		maxInputs = defaultMaxInputs
	}
	r, err := d.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, _ := d.fileFormat()
	var ds *dataset.Dataset
	if f == formatLIBSVM {
		ds, err = dataset.ReadLIBSVM(r, dataset.LIBSVMOptions{MaxFeatures: maxInputs, MaxBytes: libsvmMaxBytes})
		if err != nil && strings.Contains(err.Error(), "exceeds MaxFeatures") {
			err = errors.New(strings.Replace(err.Error(), "MaxFeatures", "-max-inputs", 1) + "; raise -max-inputs if the file is right")
		}
	} else {
		var h *csvHead
		if h, err = readCSVHead(r); err == nil {
			if cols := len(h.names); cols-1 > maxInputs {
				return nil, fmt.Errorf("%s: %d columns: more than %d feature columns and a label (-max-inputs); raise -max-inputs if the file is right", d.path, cols, maxInputs)
			}
			opt := dataset.CSVOptions{Label: d.label}
			var wcol weightCol
			if wcol, err = d.weightColumn(h.names); err == nil {
				opt.Label = wcol.labelSpec
				if ds, err = dataset.ReadCSV(h.rest(), opt); err == nil {
					err = d.takeWeights(ds, wcol)
				}
			}
		}
	}
	if err != nil {
		if isUsage(err) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	return ds, nil
}

// weightCol is where -weight and the label are in a CSV header.
type weightCol struct {
	col, label int    // file columns of the weights (−1: no -weight) and of the label
	labelSpec  string // -label as ReadCSV must get it
	name       string // the weight column's header name
}

// weightColumn resolves -weight (and, with it, the label column) against
// the header names. Without -weight it returns col −1 and -label as is.
// The label's default is the last column named y, else the last column
// other than the weight column.
func (d *dataFlags) weightColumn(names []string) (weightCol, error) {
	if d.weight == "" {
		return weightCol{col: -1, labelSpec: d.label}, nil
	}
	if names == nil {
		return weightCol{}, errors.New("-weight: cannot read the header")
	}
	w, err := columnIndex(names, d.weight, "-weight")
	if err != nil {
		return weightCol{}, err
	}
	label := -1
	if d.label != "" {
		if label, err = columnIndex(names, d.label, "-label"); err != nil {
			return weightCol{}, err
		}
	} else {
		for j := len(names) - 1; j >= 0 && label < 0; j-- {
			if names[j] == "y" {
				label = j
			}
		}
		if label < 0 {
			label = len(names) - 1
			if label == w {
				label--
			}
		}
	}
	if label == w {
		return weightCol{}, usagef("-weight %s and the label are the same column (index %d, %q)", d.weight, w, names[w])
	}
	if label < 0 {
		return weightCol{}, fmt.Errorf("-weight %s: the file has no column left for the label", d.weight)
	}
	spec := strconv.Itoa(label)
	if slices.Contains(names, spec) { // a header spelled like the index: name the column instead
		spec = names[label]
	}
	return weightCol{col: w, label: label, labelSpec: spec, name: names[w]}, nil
}

// columnIndex resolves a column given as a header name (unique) or a
// 0-based index (negative counts from the end), as -label does.
func columnIndex(names []string, spec, flag string) (int, error) {
	found := -1
	for j, s := range names {
		if s == spec {
			if found >= 0 {
				return 0, fmt.Errorf("%s %q is ambiguous: the header has two columns of that name (%d and %d); give the index", flag, spec, found, j)
			}
			found = j
		}
	}
	if found >= 0 {
		return found, nil
	}
	k, err := strconv.Atoi(spec)
	if err != nil {
		return 0, fmt.Errorf("%s column %q not found in the header", flag, spec)
	}
	if k < 0 {
		k += len(names)
	}
	if k < 0 || k >= len(names) {
		return 0, fmt.Errorf("%s column index %s out of range for %d columns", flag, spec, len(names))
	}
	return k, nil
}

// takeWeights moves the -weight column out of ds's features into
// d.weights and checks them: finite, ≥ 0, not all 0. The errors name the
// data row (1-based, after the header).
func (d *dataFlags) takeWeights(ds *dataset.Dataset, c weightCol) error {
	if c.col < 0 {
		return nil
	}
	k := c.col
	if k > c.label {
		k--
	}
	if ds.D < 2 {
		return fmt.Errorf("-weight %s: no feature column left (the file has only the weight and label columns)", d.weight)
	}
	w := make([]float64, ds.N)
	x := make([]float64, 0, ds.N*(ds.D-1))
	var sum float64
	for i := range ds.N {
		row := ds.X[i*ds.D : (i+1)*ds.D]
		w[i] = row[k]
		switch v := w[i]; {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("data row %d: weight %v in column %q is not finite", i+1, v, c.name)
		case v < 0:
			return fmt.Errorf("data row %d: weight %v in column %q is negative: weights must be ≥ 0 (0 drops a row)", i+1, v, c.name)
		}
		sum += w[i]
		x = append(append(x, row[:k]...), row[k+1:]...)
	}
	if !(sum > 0) {
		return fmt.Errorf("every weight in column %q is 0: no row to use", c.name)
	}
	if math.IsInf(sum, 0) {
		return fmt.Errorf("the weights in column %q sum to %v", c.name, sum)
	}
	ds.X, ds.D = x, ds.D-1
	if ds.FeatureNames != nil {
		ds.FeatureNames = slices.Delete(slices.Clone(ds.FeatureNames), k, k+1)
	}
	d.weights = w
	return nil
}

// loadFor reads a data file for a model with inputs features, reading it
// once (a pipe works). A CSV file with exactly inputs columns has no label
// column (ds.Y is nil) — unless a column is named y: that is the label
// column of a file that lacks a feature (made for another model, or with a
// column dropped), and is refused unless -ignore-names. One with a column
// more has its label column chosen by -label (or the default rule); its
// values are read with needLabels and not looked at otherwise. A LIBSVM
// file always has labels; its feature indices must not exceed inputs. With
// needLabels, a file without labels is an error.
//
// When the model stores feature names (names, from the training file's
// header) and the CSV file has a header, the file's feature columns must
// carry those names in that order, unless -ignore-names: a mismatch is
// refused naming the first column that differs (a column shifted by a
// dropped feature, or the label read as a feature). The names replace the
// "column named y" rule, which guesses what they know.
func (d *dataFlags) loadFor(inputs int, names []string, needLabels bool) (*dataset.Dataset, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	r, err := d.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var ds *dataset.Dataset
	f, _ := d.fileFormat()
	if f == formatLIBSVM {
		ds, err = dataset.ReadLIBSVM(r, dataset.LIBSVMOptions{NumFeatures: inputs})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
	} else {
		h, err := readCSVHead(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
		cols := len(h.names)
		opt := dataset.CSVOptions{Label: d.label, IgnoreLabel: !needLabels}
		wcol, err := d.weightColumn(h.names)
		if err != nil {
			if isUsage(err) {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
		if wcol.col >= 0 {
			// The weight column is not an input: a labelled file has the
			// model's inputs, the label and the weights.
			if cols != inputs+2 {
				return nil, fmt.Errorf("%s: %d columns, but the model takes %d inputs (with -weight a file has %d columns: the inputs, a label and the weights)", d.path, cols, inputs, inputs+2)
			}
			opt.Label = wcol.labelSpec
			cols = -1 // read as below, with a label column
		}
		switch {
		case cols == -1:
		case h.names == nil:
			// Unreadable header: ReadCSV reports it in its own words.
		case cols == inputs && d.label != "":
			return nil, fmt.Errorf("%s: -label %s given, but the file has exactly the model's %d input columns, so no label column", d.path, d.label, inputs)
		case cols == inputs && !d.ignoreNames && names == nil && slices.Contains(h.names, "y"):
			return nil, fmt.Errorf("%s: %d columns, one of them named y: a label column in place of one of the model's %d inputs? (add -ignore-names if y is a feature)", d.path, cols, inputs)
		case cols == inputs:
			opt = dataset.CSVOptions{NoLabel: true}
		case cols != inputs+1:
			return nil, fmt.Errorf("%s: %d columns, but the model takes %d inputs (a file has %d columns, or %d with a label column)", d.path, cols, inputs, inputs, inputs+1)
		}
		if ds, err = dataset.ReadCSV(h.rest(), opt); err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
		if err := d.takeWeights(ds, wcol); err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
	}
	if !d.ignoreNames {
		if err := matchNames(ds, names); err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
	}
	if needLabels && ds.Y == nil {
		return nil, fmt.Errorf("%s: no label column (the file has exactly the model's %d input columns)", d.path, inputs)
	}
	return ds, nil
}

// featureNames returns a data set's feature names as a model stores them
// (invalid UTF-8 replaced, as JSON would), or nil if they cannot be stored
// (no header, or names a model cannot hold, such as two columns of the same
// name), with the reason.
func featureNames(ds *dataset.Dataset) ([]string, error) {
	if ds.FeatureNames == nil {
		return nil, nil
	}
	names := make([]string, len(ds.FeatureNames))
	for k, s := range ds.FeatureNames {
		names[k] = strings.ToValidUTF8(s, "\uFFFD")
	}
	if err := modelfile.ValidateNames(names, ds.D); err != nil {
		return nil, err
	}
	if raw, _ := json.Marshal(names); len(raw) > limit.NamesBytes {
		return nil, fmt.Errorf("the %d column names take %d bytes, more than the %d a model file holds", len(names), len(raw), limit.NamesBytes)
	}
	return names, nil
}

// matchNames checks the data set's feature names against the model's
// (want; nothing to check if either is missing) and names the first
// feature column that differs.
func matchNames(ds *dataset.Dataset, want []string) error {
	if want == nil || ds.FeatureNames == nil {
		return nil
	}
	if len(ds.FeatureNames) != len(want) {
		return fmt.Errorf("%d feature columns, but the model has %d named inputs (add -ignore-names to use the columns by position)", len(ds.FeatureNames), len(want))
	}
	for k, s := range ds.FeatureNames {
		if got := strings.ToValidUTF8(s, "\uFFFD"); got != want[k] {
			return fmt.Errorf("feature column index %d (of %d) is named %q, but the model's input %d is %q: not the columns the model was trained on (add -ignore-names to use them by position)",
				k, len(want), got, k, want[k])
		}
	}
	return nil
}

// csvHead is the header row of a CSV stream, read without losing the
// bytes it consumed: rest returns the whole stream again (header
// included) for dataset.ReadCSV, so the file is read once and a pipe
// works.
type csvHead struct {
	names    []string // nil if the header could not be read
	consumed bytes.Buffer
	r        io.Reader
}

// maxHeadBytes bounds the header row read by readCSVHead: 32 MiB, the
// line limit of dataset.ReadCSV at its default MaxLineBytes, which reads
// the rest.
const maxHeadBytes = 1 << 25

func readCSVHead(r io.Reader) (*csvHead, error) {
	h := &csvHead{r: r}
	// Everything the CSV reader takes from r (it reads ahead) is kept in
	// consumed; the limit keeps a file without line breaks from being
	// buffered whole.
	rec, err := csv.NewReader(io.TeeReader(io.LimitReader(r, maxHeadBytes), &h.consumed)).Read()
	if h.consumed.Len() >= maxHeadBytes && bytes.IndexByte(h.consumed.Bytes(), '\n') < 0 {
		return nil, fmt.Errorf("dataset: line 1 (the header) is longer than %d bytes", maxHeadBytes)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return h, nil // ReadCSV reports it in its own words (line, compression)
	}
	for _, s := range rec {
		h.names = append(h.names, strings.TrimSpace(strings.TrimPrefix(s, "\uFEFF")))
	}
	return h, nil
}

// rest is the whole stream, from its first byte.
func (h *csvHead) rest() io.Reader { return io.MultiReader(&h.consumed, h.r) }

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
