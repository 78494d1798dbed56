package fogd_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/learnertest"
)

// TestMulticlassGolden: a multiclass model has the bytes of
// testdata/multiclass.model on every path and architecture (the data,
// learnertest.Rings3, are the same bits everywhere). Regenerate with
// go test -run MulticlassGolden ./learners/fogd -update.
func TestMulticlassGolden(t *testing.T) {
	X, y := learnertest.Rings3(150, 7)
	m, err := fogd.Fit(context.Background(), X, y, fogd.Config{Task: learners.Multiclass, Features: 20, Epochs: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass", got)
}
