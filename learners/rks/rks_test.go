package rks_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestMulticlassWeightedGolden: weights and imputation (the weighted
// statistics over the values present, the weighted multinomial loss) give
// the bytes of testdata/multiclass-weighted-missing.model on every path
// and architecture (the multiclass golden file without them is the
// conformance suite's). Regenerate with
// go test -run MulticlassWeightedGolden ./learners/rks -update.
func TestMulticlassWeightedGolden(t *testing.T) {
	Xn, y, w := learnertest.WeightedMissing()
	m, err := rks.FitWeighted(context.Background(), Xn, y, w, rks.Config{Task: learners.Multiclass, Features: 20, Seed: 3, Missing: learners.MissingImpute})
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "multiclass-weighted-missing", learnertest.Bytes(t, m))
}
