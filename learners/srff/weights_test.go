package srff_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/srff"
)

// TestWeights: with the search, a weighted fit through the registry's
// Method.FitWeighted runs and differs from the unweighted one; a weight
// column that keeps fewer than minRows rows is refused. (Weight 2 ≡ the
// row twice, 0 ≡ dropped, at a given λ and simplex size, is the
// conformance suite's Case.Weighted: the search's split and the default
// simplex are drawn from rows, not copies; see FitWeighted.)
func TestWeights(t *testing.T) {
	m := learnertest.Lookup(t, "srff")
	X, y := learnertest.Sine(80, 1)
	w := make([]float64, 80)
	for i := range w {
		w[i] = float64(1 + i%3)
	}
	search := srff.Config{Features: 10, Lambdas: 3, MaxIterations: 5, Seed: 1}
	mw, err := m.FitWeighted(context.Background(), X, y, w, &search, nil)
	if err != nil {
		t.Fatalf("registry FitWeighted: %v", err)
	}
	mu := fit(t, X, y, search)
	if len(mw.(*srff.Model).Search()) != 3 {
		t.Errorf("weighted search %+v, want 3 points", mw.(*srff.Model).Search())
	}
	if s := mw.(*srff.Model).Score(X.Row(0)); s == mu.Score(X.Row(0)) || s != s {
		t.Errorf("weighted score %v, unweighted %v: want a finite, different value", s, mu.Score(X.Row(0)))
	}
	// A weight column that keeps fewer than minRows rows is refused.
	few := make([]float64, 80)
	for i := range 5 {
		few[i] = 1
	}
	cfg := srff.Config{Features: 20, Lambda: 1e-3, Simplex: 2, MaxIterations: 30, Seed: 2}
	if _, err := srff.FitWeighted(context.Background(), X, y, few, cfg); err == nil {
		t.Error("5 rows of positive weight: no error")
	}
}
