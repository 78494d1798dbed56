package prff_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/prff"
)

// TestWeightsNilIsFit: FitWeighted without weights is Fit, bit for bit,
// and unit weights differ from it only by the order of the sums.
func TestWeightsNilIsFit(t *testing.T) {
	X, y := rings(150, 1, 3, 7, 2)
	cfg := prff.Config{Features: 10, MaxIter: 10, Seed: 5}
	a, err := prff.Fit(context.Background(), X, y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := prff.FitWeighted(context.Background(), X, y, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !learnertest.SameModel(t, a, b) {
		t.Error("FitWeighted(nil) differs from Fit")
	}
}

// TestWeightedGolden: fractional weights through every weighted path (the
// weighted bandwidth percentile, the weighted Gram loss over two
// mini-batches, the weighted logistic head) give the bytes of
// testdata/weighted.model on every SIMD path and architecture. Regenerate
// with go test -run WeightedGolden ./learners/prff -update.
func TestWeightedGolden(t *testing.T) {
	X, y := rings(150, 1, 3, 7, 6)
	w := learnertest.FracWeights(X.Rows)
	m, err := prff.FitWeighted(context.Background(), X, y, w, prff.Config{Features: 6, MaxIter: 10, Batch: 64, Lambda: 1e-3, Seed: 3}) // λ: the default when the file was recorded
	if err != nil {
		t.Fatal(err)
	}
	learnertest.Golden(t, "weighted", learnertest.Bytes(t, m))
}

// TestWeightedCV: a weighted cross-validated search over PRFF settings
// runs through the registry's FitWeighted (cv.Candidates), and fractional
// weights, which the unweighted fallback refuses, are accepted.
func TestWeightedCV(t *testing.T) {
	m := learnertest.Lookup(t, "prff")
	vs, err := cv.Expand(&prff.Config{MaxIter: 5, Seed: 1, Search: learners.Disabled}, map[string][]string{"features": {"4", "8"}})
	if err != nil {
		t.Fatal(err)
	}
	X, y := rings(90, 1, 3, 7, 3)
	w := make([]float64, X.Rows)
	for i := range w {
		w[i] = 0.5 + float64(i%3)
	}
	res, err := cv.Search(context.Background(), X, y, cv.Candidates(m, vs), cv.Options{Task: learners.Binary, Folds: 3, Seed: 1, Weights: w})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Scores) != 2 {
		t.Fatalf("%d scores for 2 settings", len(res.Scores))
	}
	for i, s := range res.Mean {
		if !(s > 0.5 && s <= 1) {
			t.Errorf("setting %d: weighted CV accuracy %v", i, s)
		}
	}
}
