package rfbeam

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // file paths without a scheme
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rfkit/rfkit/dataset"
)

// Format is the layout of a text source.
type Format string

// The formats.
const (
	// CSV is a header row and one row of numbers per line, read as
	// dataset.ReadCSV reads it (a record spanning lines is not supported).
	CSV Format = "csv"
	// LIBSVM is "label index:value ..." per line, as dataset.ReadLIBSVM
	// reads it.
	LIBSVM Format = "libsvm"
)

// TextOptions configures ReadRows and ReadExamples.
type TextOptions struct {
	// Format is CSV or LIBSVM ("" → CSV).
	Format Format
	// Inputs is the number of features per row (a model's NumInputs()).
	// ReadRows needs it; for ReadExamples it is the CSV column count minus
	// one, or, for LIBSVM, the largest feature index, and 0 means read it
	// from the data: the CSV header, or, for LIBSVM, must be given.
	Inputs int
	// Label chooses the CSV label column as dataset.CSVOptions.Label does
	// (by default the last column named y, else the last column). ReadRows
	// reads a file of Inputs columns as having no label column, and ignores
	// the label column of a file of Inputs + 1 (as rfkit predict does).
	Label string
	// Names, when not nil, are the feature names the CSV header must carry
	// in order (a model's FeatureNames()); a header that differs is an
	// error naming the first differing column.
	Names []string
}

// ReadRows reads the files matching the glob patterns (a local path, or
// gs://… with the GCS file system linked in) as rows to score, one Row per
// data line, Index the 0-based data row of its file. Each file is read
// sequentially by one worker (follow with beam.Reshuffle to spread the
// rows); files are read in parallel. A line that does not parse goes to
// the dead-letter output with the reader's reason; a file whose header
// does not fit opt, or that cannot be opened, fails the job with an error
// naming it. Patterns matching nothing are an error when the pipeline
// runs.
func ReadRows(s beam.Scope, opt TextOptions, patterns ...string) (rows, bad beam.PCollection, err error) {
	if err := opt.check(true); err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	s = s.Scope("rfbeam.ReadRows")
	files := beam.ParDo(s, &globFn{}, beam.CreateList(s, patterns))
	rows, bad = beam.ParDo2(s, &readRowsFn{readFn{Opt: opt}}, files)
	return rows, bad, nil
}

// ReadExamples reads the files matching the glob patterns as labelled
// training rows, as ReadRows reads rows (the label column is required).
func ReadExamples(s beam.Scope, opt TextOptions, patterns ...string) (examples, bad beam.PCollection, err error) {
	if err := opt.check(false); err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	s = s.Scope("rfbeam.ReadExamples")
	files := beam.ParDo(s, &globFn{}, beam.CreateList(s, patterns))
	examples, bad = beam.ParDo2(s, &readExamplesFn{readFn{Opt: opt, Labelled: true}}, files)
	return examples, bad, nil
}

func (o TextOptions) check(rows bool) error {
	switch {
	case o.Format != "" && o.Format != CSV && o.Format != LIBSVM:
		return fmt.Errorf("rfbeam: unknown format %q (want %q or %q)", o.Format, CSV, LIBSVM)
	case o.Inputs < 0:
		return fmt.Errorf("rfbeam: Inputs = %d, want ≥ 0", o.Inputs)
	case rows && o.Inputs == 0:
		return errors.New("rfbeam: ReadRows needs Inputs (the model's number of inputs)")
	case o.Format == LIBSVM && o.Inputs == 0:
		return errors.New("rfbeam: a LIBSVM source needs Inputs (its number of features)")
	case o.Names != nil && o.Inputs != 0 && len(o.Names) != o.Inputs:
		return fmt.Errorf("rfbeam: %d names for %d inputs", len(o.Names), o.Inputs)
	}
	return nil
}

// globFn expands a pattern to its files.
type globFn struct{}

func (*globFn) ProcessElement(ctx context.Context, pattern string, emit func(string)) error {
	fs, err := filesystem.New(ctx, pattern)
	if err != nil {
		return fmt.Errorf("rfbeam: %s: %w", pattern, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, pattern)
	if err != nil {
		return fmt.Errorf("rfbeam: %s: %w", pattern, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("rfbeam: %s: no file matches", pattern)
	}
	slices.Sort(files)
	for _, f := range files {
		emit(f)
	}
	return nil
}

// readFn reads one file line by line; readRowsFn and readExamplesFn
// are its two DoFns.
type readFn struct {
	Opt      TextOptions
	Labelled bool
}

type readRowsFn struct{ readFn }

type readExamplesFn struct{ readFn }

func (f *readRowsFn) ProcessElement(ctx context.Context, path string, emit func(Row), dead func(BadRow)) error {
	return f.read(ctx, path, func(index int64, x []float64, _ float64) {
		emit(Row{Source: path, Index: index, X: x})
	}, dead)
}

func (f *readExamplesFn) ProcessElement(ctx context.Context, path string, emit func(Example), dead func(BadRow)) error {
	return f.read(ctx, path, func(index int64, x []float64, y float64) {
		emit(Example{Source: path, Index: index, X: x, Y: y})
	}, dead)
}

// lineNo matches the line number the dataset readers put in their errors
// (always line 1 or 2 of the one-line input handed to them).
var lineNo = regexp.MustCompile(`^dataset: line [0-9]+(: |, )`)

// lineHas matches "line N has" of the field-count error.
var lineHas = regexp.MustCompile(`^dataset: line [0-9]+ has`)

func (f *readFn) read(ctx context.Context, path string, emit func(int64, []float64, float64), dead func(BadRow)) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("rfbeam: %s: %w", path, err)
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return fmt.Errorf("rfbeam: %s: %w", path, err)
	}
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<16)
	parse, err := f.parser(br, path)
	if err != nil {
		return err
	}
	var index int64
	for {
		line, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("rfbeam: %s: data row %d: %w", path, index+1, err)
		}
		text := strings.TrimRight(line, "\r\n")
		if f.isData(text) {
			x, y, perr := parse(text)
			if perr != nil {
				reason := lineNo.ReplaceAllString(perr.Error(), "")
				reason = lineHas.ReplaceAllString(reason, "line has")
				dead(BadRow{Source: path, Index: index, Line: text, Reason: strings.TrimPrefix(reason, "dataset: ")})
			} else {
				emit(index, x, y)
			}
			index++
		}
		if err == io.EOF {
			return nil
		}
	}
}

// isData tells whether a line holds a data row, as the dataset readers
// count them: CSV skips empty lines, LIBSVM blank and comment-only ones.
func (f *readFn) isData(text string) bool {
	if f.Opt.Format == LIBSVM {
		if k := strings.IndexByte(text, '#'); k >= 0 {
			text = text[:k]
		}
		return strings.TrimLeft(text, " \t") != ""
	}
	return text != ""
}

// parser reads a CSV header from br and returns the parser of one line.
func (f *readFn) parser(br *bufio.Reader, path string) (func(string) ([]float64, float64, error), error) {
	opt := f.Opt
	if opt.Format == LIBSVM {
		lo := dataset.LIBSVMOptions{NumFeatures: opt.Inputs}
		return func(line string) ([]float64, float64, error) {
			ds, err := dataset.ReadLIBSVM(strings.NewReader(line), lo)
			if err != nil {
				return nil, 0, err
			}
			return ds.X, ds.Y[0], nil
		}, nil
	}
	head, err := br.ReadString('\n')
	if err != nil && (err != io.EOF || head == "") {
		if err == io.EOF {
			return nil, fmt.Errorf("rfbeam: %s: empty file (no CSV header)", path)
		}
		return nil, fmt.Errorf("rfbeam: %s: %w", path, err)
	}
	head = strings.TrimPrefix(strings.TrimRight(head, "\r\n"), "\uFEFF")
	cols, err := headerColumns(head)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %s: header: %w", path, err)
	}
	co := dataset.CSVOptions{Label: opt.Label}
	switch {
	case !f.Labelled && cols == opt.Inputs:
		if opt.Label != "" {
			return nil, fmt.Errorf("rfbeam: %s: Label %q given, but the file has exactly the model's %d input columns", path, opt.Label, opt.Inputs)
		}
		co = dataset.CSVOptions{NoLabel: true}
	case !f.Labelled && cols == opt.Inputs+1:
		co.IgnoreLabel = true
	case !f.Labelled, opt.Inputs != 0 && cols != opt.Inputs+1:
		return nil, fmt.Errorf("rfbeam: %s: %d columns, but %d inputs (a file has %d columns, or %d with a label column)", path, cols, opt.Inputs, opt.Inputs, opt.Inputs+1)
	}
	// The header and the options are checked once, on a row of zeros.
	probe, err := dataset.ReadCSV(strings.NewReader(head+"\n"+zeros(cols)), co)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %s: header: %w", path, err)
	}
	if opt.Names != nil {
		if k := firstDiff(probe.FeatureNames, opt.Names); k >= 0 {
			got, want := "(none)", "(none)"
			if k < len(probe.FeatureNames) {
				got = fmt.Sprintf("%q", probe.FeatureNames[k])
			}
			if k < len(opt.Names) {
				want = fmt.Sprintf("%q", opt.Names[k])
			}
			return nil, fmt.Errorf("rfbeam: %s: feature %d is %s in the header, %s in the model", path, k, got, want)
		}
	}
	return func(line string) ([]float64, float64, error) {
		ds, err := dataset.ReadCSV(strings.NewReader(head+"\n"+line), co)
		if err != nil {
			return nil, 0, err
		}
		if ds.N != 1 {
			return nil, 0, fmt.Errorf("the line holds %d records (a quoted field spanning lines is not supported)", ds.N)
		}
		y := 0.0
		if ds.Y != nil {
			y = ds.Y[0]
		}
		return ds.X, y, nil
	}, nil
}

// firstDiff returns the first index where a and b differ, or −1.
func firstDiff(a, b []string) int {
	for k := range max(len(a), len(b)) {
		if k >= len(a) || k >= len(b) || a[k] != b[k] {
			return k
		}
	}
	return -1
}

// zeros is a CSV record of cols zeros.
func zeros(cols int) string { return strings.Repeat("0,", cols-1) + "0" }

// headerColumns is the number of fields of a CSV header, as the dataset
// reader splits it.
func headerColumns(head string) (int, error) {
	r := csv.NewReader(strings.NewReader(head))
	rec, err := r.Read()
	if err != nil {
		return 0, fmt.Errorf("%w", err)
	}
	return len(rec), nil
}

func init() {
	register.DoFn3x1[context.Context, string, func(string), error](&globFn{})
	register.DoFn4x1[context.Context, string, func(Row), func(BadRow), error](&readRowsFn{})
	register.DoFn4x1[context.Context, string, func(Example), func(BadRow), error](&readExamplesFn{})
	register.Emitter1[string]()
	register.Emitter1[Row]()
	register.Emitter1[Example]()
}
