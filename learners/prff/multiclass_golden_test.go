package prff_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/prff"
)

// TestMulticlassGolden: a multiclass model has the bytes of
// testdata/multiclass.model on every path and architecture (the data,
// learnertest.Rings3, are the same bits everywhere). Regenerate with
// go test -run MulticlassGolden ./learners/prff -update.
func TestMulticlassGolden(t *testing.T) {
	X, y := learnertest.Rings3(150, 7)
	m, err := prff.Fit(context.Background(), X, y, prff.Config{Task: learners.Multiclass, Features: 10, MaxIter: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass", got)
}
