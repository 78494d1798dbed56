package rrf_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rrf"
)

// TestMulticlassGolden: a multiclass model has the bytes of
// testdata/multiclass.model on every path and architecture (the data,
// learnertest.Rings3, are the same bits everywhere). Regenerate with
// go test -run MulticlassGolden ./learners/rrf -update.
func TestMulticlassGolden(t *testing.T) {
	X, y := learnertest.Rings3(150, 7)
	m, err := rrf.Fit(context.Background(), X, y, rrf.Config{Task: learners.Multiclass, Loss: rrf.Logistic, Features: 16, Epochs: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass", got)
}
