package prff_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/prff"
)

// TestSearchGamma: the default fit compares the bandwidth rule's γ times
// kit.GammaFactors on held-out rows and stores the γ it chose, one of
// them; Search disabled fits the rule's γ alone.
func TestSearchGamma(t *testing.T) {
	X, y := learnertest.Rings(300, 0, 0, 1, 5)
	plain := fit(t, X, y, prff.Config{Features: 8, MaxIter: 20, Search: learners.Disabled})
	m := fit(t, X, y, prff.Config{Features: 8, MaxIter: 20})
	g0, g := plain.Config().Gamma, m.Config().Gamma
	if st := m.FitStats(); st.Candidates != len(kit.GammaFactors) || st.HeldOutRows != 150 {
		t.Errorf("stats %+v, want %d candidates on 150 rows", st, len(kit.GammaFactors))
	}
	found := false
	for _, f := range kit.GammaFactors {
		found = found || g == f*g0
	}
	if !found {
		t.Errorf("γ %v, want the rule's %v times one of %v", g, g0, kit.GammaFactors)
	}
}

// TestDefaults: a zero Config fits 100 learned features and a logistic
// read-out with λ = 1e-4, and a bad λ is reported with that default.
func TestDefaults(t *testing.T) {
	X, y := rings(200, 0, 0, 1, 4)
	m, err := prff.Fit(context.Background(), X, y, prff.Config{MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Config(); c.Features != 100 || c.Lambda != 1e-4 {
		t.Errorf("resolved Features %d, Lambda %v; want 100 and 1e-4", c.Features, c.Lambda)
	}
	if err := (prff.Config{Lambda: -1}).Validate(); err == nil || !strings.Contains(err.Error(), "default 0.0001") {
		t.Errorf("Lambda = -1: %v", err)
	}
}
