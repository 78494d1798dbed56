package mfga_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/mfga"
)

// TestSearchSigma: the default fit compares the σ rule times 1, ½ and 2
// on held-out rows (three candidates) and stores the σ it chose, one of
// them; Search disabled fits the rule's σ alone.
func TestSearchSigma(t *testing.T) {
	X, y := learnertest.Rings(300, 0, 0, 1, 5)
	plain := fit(t, X, y, mfga.Config{Features: 10, Search: learners.Disabled})
	m := fit(t, X, y, mfga.Config{Features: 10})
	s0, s := plain.Config().Sigma, m.Config().Sigma
	if st := m.FitStats(); st.Candidates != 3 || st.HeldOutRows != 150 {
		t.Errorf("stats %+v, want 3 candidates on 150 rows", st)
	}
	if s != s0 && s != 0.5*s0 && s != 2*s0 {
		t.Errorf("σ %v, want the rule's %v times 1, ½ or 2", s, s0)
	}
	if st := plain.FitStats(); st.Candidates != 1 {
		t.Errorf("without the search: %+v, want 1 candidate", st)
	}
}
