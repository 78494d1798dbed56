package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/internal/atomicfile"
	"github.com/rfkit/rfkit/learners"
)

// runSplit is rfkit split: a seeded train/test split of a CSV file, written
// as two CSV files with the same header and the rows in their input order.
func runSplit(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("split", "rfkit split -data FILE.csv -train TRAIN.csv -test TEST.csv [-test-fraction F] [-seed N]",
		"Splits the rows of a CSV file (header row first) into a training and a test file.\n"+
			"Class labels (two values, or up to 20 integer classes, as -task auto reads them)\n"+
			"are split stratified: each class gives round(F × its size) rows to the test file,\n"+
			"at least one and at most all but one. Other labels (regression) are split at random.\n"+
			"The split depends only on the labels, F and -seed. Each file is written atomically.")
	var data, label, trainOut, testOut string
	var frac float64
	var seed uint64
	fs.StringVar(&data, "data", "", "the CSV `file` to split (header row first)")
	fs.StringVar(&label, "label", "", "the label `column`: a header name or a 0-based index (negative counts from the end); by default the last column named y, else the last column")
	fs.StringVar(&trainOut, "train", "", "the training `file` to write")
	fs.StringVar(&testOut, "test", "", "the test `file` to write")
	fs.Float64Var(&frac, "test-fraction", 0.2, "the fraction `F` of rows for the test file, in (0, 1)")
	fs.Uint64Var(&seed, "seed", 1, "random `seed` of the split")
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	switch {
	case data == "" || trainOut == "" || testOut == "":
		return usagef("-data, -train and -test are required")
	case !(frac > 0 && frac < 1):
		return usagef("-test-fraction %v: want a value in (0, 1)", frac)
	case samePath(trainOut, testOut) || samePath(data, trainOut) || samePath(data, testOut):
		return usagef("-data, -train and -test must be three different files")
	}
	header, rows, err := readSplitCSV(data)
	if err != nil {
		return err
	}
	col := len(header) - 1
	if label != "" {
		if col, err = columnIndex(header, label, "-label"); err != nil {
			return usagef("%v", err)
		}
	} else {
		for j, name := range header {
			if name == "y" {
				col = j
			}
		}
	}
	y := make([]float64, len(rows))
	for i, r := range rows {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: data row %d: label %q (column %q) is not a finite number", data, i+1, r[col], header[col])
		}
		y[i] = v
	}
	if len(rows) < 2 {
		return fmt.Errorf("%s: %d data rows: a split needs at least two", data, len(rows))
	}
	var train, test []int
	if task, _ := autoTask(y, header[col]); task == learners.Regression {
		train, test = randomSplit(len(y), frac, seed)
	} else {
		train, test = dataset.StratifiedSplit(y, frac, seed)
	}
	if len(train) == 0 || len(test) == 0 {
		return fmt.Errorf("%s: -test-fraction %v of %d rows leaves one side empty", data, frac, len(rows))
	}
	for _, out := range []struct {
		path string
		idx  []int
	}{{trainOut, train}, {testOut, test}} {
		if err := atomicfile.Write(ctx, out.path, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			if err := cw.Write(header); err != nil {
				return err
			}
			for _, i := range out.idx {
				if err := cw.Write(rows[i]); err != nil {
					return err
				}
			}
			cw.Flush()
			return cw.Error()
		}); err != nil {
			return fmt.Errorf("write %s: %w", out.path, err)
		}
	}
	fmt.Fprintf(e.stdout, "%d training rows to %s, %d test rows to %s (seed %d)\n", len(train), trainOut, len(test), testOut, seed)
	return nil
}

// readSplitCSV reads a CSV file with a header row; every row must have the
// header's number of fields.
func readSplitCSV(path string) (header []string, rows [][]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = false
	header, err = r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("%s: empty file (want a header row)", path)
	} else if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	rows, err = r.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return header, rows, nil
}

// randomSplit puts round(frac·n) of the indices 0..n-1, chosen at random
// (PCG(seed, 0)), in test and the others in train, both sorted.
func randomSplit(n int, frac float64, seed uint64) (train, test []int) {
	perm := rand.New(rand.NewPCG(seed, 0)).Perm(n)
	k := int(math.Round(frac * float64(n)))
	test, train = slices.Clone(perm[:k]), slices.Clone(perm[k:])
	slices.Sort(test)
	slices.Sort(train)
	return train, test
}

// samePath reports whether a and b name the same file (after cleaning and
// making them absolute).
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
