package main

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
)

// TestColumnIndexInMessages: an input the model cannot take is reported by
// its 0-based column index, as -label and -weight take columns, and by its
// 1-based data row. (The CSV reader refuses non-finite values first, so the
// rows are built here.)
func TestColumnIndexInMessages(t *testing.T) {
	_, model := trained(t, t.TempDir())
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := learners.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	ds := &dataset.Dataset{N: 2, D: 2, X: []float64{0.5, 0.5, 0.25, math.NaN()}, Y: []float64{1, -1}}
	_, err = modelOutputs(context.Background(), &loadedModel{Model: m}, ds)
	if err == nil || !strings.Contains(err.Error(), "data row 2: input index 1 is NaN") {
		t.Errorf("err = %v, want data row 2: input index 1 is NaN", err)
	}
}
