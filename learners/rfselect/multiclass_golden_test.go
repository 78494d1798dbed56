package rfselect_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rfselect"
)

// TestMulticlassGolden: a multiclass model has the bytes of
// testdata/multiclass.model on every path and architecture (the data,
// learnertest.Rings3, are the same bits everywhere). Regenerate with
// go test -run MulticlassGolden ./learners/rfselect -update.
func TestMulticlassGolden(t *testing.T) {
	X, y := learnertest.Rings3(150, 7)
	m, err := rfselect.Fit(context.Background(), X, y, rfselect.Config{Selection: rfselect.LKRFSelection, Task: learners.Multiclass, Features: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass", got)
}
