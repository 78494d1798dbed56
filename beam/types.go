package rfbeam

import (
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Row is one row of inputs to score. Index identifies it in the output
// (the 0-based data row of a text file); Source names its file, if any.
type Row struct {
	Source string
	Index  int64
	X      []float64
}

// Example is one labelled row for training: inputs X and label or target Y.
type Example struct {
	Source string
	Index  int64
	X      []float64
	Y      float64
}

// Prediction is the output for one Row: the Row's Source and Index and the
// value asked for (see Output), with the bits Model.Predict, Score or
// Probability gives on one machine.
type Prediction struct {
	Source string
	Index  int64
	Value  float64
}

// BadRow is a dead-letter record: a row or line that could not be read or
// scored, and why. Line holds the text of a line of a text source (empty
// for a Row of a PCollection).
type BadRow struct {
	Source string
	Index  int64
	Line   string
	Reason string
}

// String formats a dead-letter record as one line, "SOURCE: data row N:
// REASON", N 1-based as rfkit counts data rows (Index + 1; the ROW of a
// prediction line is Index itself).
func (b BadRow) String() string {
	if b.Source == "" {
		return fmt.Sprintf("data row %d: %s", b.Index+1, b.Reason)
	}
	return fmt.Sprintf("%s: data row %d: %s", b.Source, b.Index+1, b.Reason)
}

func init() {
	for _, t := range []any{Row{}, Example{}, Prediction{}, BadRow{}, Partial{}, Standardization{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}
