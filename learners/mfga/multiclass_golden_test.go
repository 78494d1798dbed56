package mfga_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/mfga"
)

// TestMulticlassGolden: a multiclass model has the bytes of
// testdata/multiclass.model on every path and architecture (the data,
// learnertest.Rings3, are the same bits everywhere). Regenerate with
// go test -run MulticlassGolden ./learners/mfga -update.
func TestMulticlassGolden(t *testing.T) {
	X, y := learnertest.Rings3(150, 7)
	m, err := mfga.Fit(context.Background(), X, y, mfga.Config{Task: learners.Multiclass, Degree: 2, Features: 8})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass", got)
}
