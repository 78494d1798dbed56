package rks_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestMulticlassGolden: a multiclass model has the bytes of
// testdata/multiclass.model on every path and architecture (the data,
// learnertest.Rings3, are the same bits everywhere). Regenerate with
// go test -run MulticlassGolden ./learners/rks -update.
func TestMulticlassGolden(t *testing.T) {
	X, y := learnertest.Rings3(150, 7)
	m, err := rks.Fit(context.Background(), X, y, rks.Config{Task: learners.Multiclass, Features: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass", got)
	// Weights and imputation: the weighted statistics over the values
	// present, the weighted multinomial loss.
	w := make([]float64, X.Rows)
	for i := range w {
		w[i] = float64(i%4) / 2
	}
	Xn := learnertest.WithMissing(X, 5)
	m, err = rks.FitWeighted(context.Background(), Xn, y, w, rks.Config{Task: learners.Multiclass, Features: 20, Seed: 3, Missing: learners.MissingImpute})
	if err != nil {
		t.Fatal(err)
	}
	if got, err = m.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass-weighted-missing", got)
}
