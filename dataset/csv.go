package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/internal/xmath"
)

// CSVOptions configures [ReadCSV] and [LoadCSV]. The zero value reads
// comma-separated data with the label in the last column named "y" (or,
// without such a column, the last column).
type CSVOptions struct {
	// Label selects the label column: a header name (e.g. "y") or a
	// 0-based column index written as a decimal string ("3"); negative
	// indices count from the end ("-1" is the last column). A header name
	// takes precedence over an index with the same spelling. A name that
	// occurs more than once in the header is ambiguous and is an error;
	// select such a column by index. Empty means the default: the last
	// column named "y" if there is one, otherwise the last column.
	Label string

	// NoLabel makes every column a feature and leaves Dataset.Y nil, for
	// prediction inputs. It cannot be combined with Label.
	NoLabel bool

	// IgnoreLabel chooses the label column as usual (see Label) but does
	// not read its values: they may be empty or anything else, and
	// Dataset.Y is nil. For prediction inputs that carry a label column
	// whose content does not matter (LabelName is still set).
	IgnoreLabel bool

	// MaxLineBytes bounds the length of a line (0 means 32 MiB, room for
	// about three million numeric fields), so input without line breaks
	// fails instead of being buffered whole.
	MaxLineBytes int

	// Comma is the field delimiter; 0 means ','.
	Comma rune

	// Comment, if not 0, starts a comment line when it is the first
	// character of a line (as in encoding/csv).
	Comment rune
}

// LoadCSV opens path and reads it with [ReadCSV]. Errors are prefixed with
// the path.
func LoadCSV(path string, opt CSVOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	ds, err := ReadCSV(f, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ds, nil
}

// ReadCSV reads a numeric CSV file with a header row, streaming it record
// by record.
//
// The header names the columns; names are trimmed of surrounding spaces
// and may repeat. Every following record must have as many fields as the
// header and every field must be a finite number (as accepted by
// strconv.ParseFloat, surrounding spaces allowed). A UTF-8 byte-order mark
// and \r\n line endings are accepted; blank lines are skipped. The label
// column is chosen by opt.Label (see [CSVOptions]); all other columns are
// features, in file order.
//
// Errors name the line and column, e.g.
//
//	dataset: line 17, column "age": "abc" is not a number
//	dataset: line 17, column "age": empty value (missing data is not supported)
//	dataset: line 17, column "age": "NaN" is not finite (data must be finite)
//	dataset: line 5 has 7 fields, header has 8
//	dataset: no data rows (header only)
func ReadCSV(r io.Reader, opt CSVOptions) (*Dataset, error) {
	if opt.NoLabel && opt.Label != "" {
		return nil, errors.New("dataset: CSVOptions.Label and NoLabel are mutually exclusive")
	}
	if opt.NoLabel && opt.IgnoreLabel {
		return nil, errors.New("dataset: CSVOptions.IgnoreLabel and NoLabel are mutually exclusive")
	}
	if opt.MaxLineBytes < 0 {
		return nil, errors.New("dataset: CSVOptions.MaxLineBytes must not be negative")
	}
	br, err := openText(r, opt.MaxLineBytes)
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1 // checked here, for a clearer message
	if opt.Comma != 0 {
		cr.Comma = opt.Comma
	}
	cr.Comment = opt.Comment

	rec, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("dataset: empty input (no header row)")
	}
	if err != nil {
		return nil, csvErr(err)
	}
	names := make([]string, len(rec))
	for j, s := range rec {
		names[j] = strings.TrimSpace(s)
	}
	ncol := len(names)

	label := -1
	if !opt.NoLabel {
		label, err = labelColumn(names, opt.Label)
		if err != nil {
			return nil, err
		}
	}
	ds := &Dataset{D: ncol}
	if label >= 0 {
		ds.D--
		ds.LabelName = names[label]
		ds.FeatureNames = make([]string, 0, ds.D)
		ds.FeatureNames = append(ds.FeatureNames, names[:label]...)
		ds.FeatureNames = append(ds.FeatureNames, names[label+1:]...)
	} else {
		ds.FeatureNames = names
	}
	if ds.D == 0 {
		return nil, fmt.Errorf("dataset: no feature columns (the header has only the label column %q)", ds.LabelName)
	}
	col := columnDescriber(names)

	for {
		rec, err = cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(err)
		}
		if len(rec) != ncol {
			line, _ := cr.FieldPos(0)
			return nil, fmt.Errorf("dataset: line %d has %d fields, header has %d", line, len(rec), ncol)
		}
		for j, s := range rec {
			if j == label && opt.IgnoreLabel {
				continue
			}
			v, problem := parseValue(s)
			if problem != "" {
				line, _ := cr.FieldPos(j)
				return nil, fmt.Errorf("dataset: line %d, column %s: %s", line, col(j), problem)
			}
			if j == label {
				ds.Y = append(ds.Y, v)
			} else {
				ds.X = append(ds.X, v)
			}
		}
		ds.N++
	}
	if ds.N == 0 {
		return nil, errors.New("dataset: no data rows (header only)")
	}
	return ds, nil
}

// labelColumn resolves CSVOptions.Label against the header.
func labelColumn(names []string, label string) (int, error) {
	if label == "" {
		for j := len(names) - 1; j >= 0; j-- {
			if names[j] == "y" {
				return j, nil
			}
		}
		return len(names) - 1, nil
	}
	var at []string
	found := -1
	for j, s := range names {
		if s == label {
			found = j
			at = append(at, strconv.Itoa(j))
		}
	}
	if len(at) > 1 {
		return 0, fmt.Errorf("dataset: label column %q is ambiguous: the header has %d columns with that name (indices %s); select it by index",
			label, len(at), strings.Join(at, ", "))
	}
	if found >= 0 {
		return found, nil
	}
	k, err := strconv.Atoi(strings.TrimSpace(label))
	if err != nil {
		return 0, fmt.Errorf("dataset: label column %q not found in the header", label)
	}
	if k < 0 {
		k += len(names)
	}
	if k < 0 || k >= len(names) {
		return 0, fmt.Errorf("dataset: label column index %s out of range for %d columns", label, len(names))
	}
	return k, nil
}

// columnDescriber returns a function naming column j in error messages:
// its quoted header name when that is non-empty and unique, otherwise the
// name with its 0-based index.
func columnDescriber(names []string) func(int) string {
	count := make(map[string]int, len(names))
	for _, s := range names {
		count[s]++
	}
	return func(j int) string {
		if names[j] != "" && count[names[j]] == 1 {
			return strconv.Quote(names[j])
		}
		return fmt.Sprintf("%q (index %d)", names[j], j)
	}
}

// parseValue parses one numeric field. On failure it returns a description
// of the problem.
func parseValue(s string) (float64, string) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, "empty value (missing data is not supported)"
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && xmath.Finite(v) {
			return v, "" // underflow to zero/denormal: fine
		}
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Sprintf("%s is out of range for float64", quoteShort(t))
		}
		return 0, fmt.Sprintf("%s is not a number", quoteShort(t))
	}
	if !xmath.Finite(v) {
		return 0, fmt.Sprintf("%s is not finite (data must be finite)", quoteShort(t))
	}
	return v, ""
}

// quoteShort quotes s, truncating very long values so error messages stay
// readable.
func quoteShort(s string) string {
	const max = 40
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// csvErr rewrites an encoding/csv error in this package's style.
func csvErr(err error) error {
	var pe *csv.ParseError
	if errors.Is(err, errLineTooLong) {
		return err
	}
	if errors.As(err, &pe) {
		return fmt.Errorf("dataset: line %d: %w", pe.Line, pe.Err)
	}
	return fmt.Errorf("dataset: %w", err)
}
