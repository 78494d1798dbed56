package mfga_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/mfga"
)

// TestSearchSigma: the default fit of a classifier compares the σ rule
// times 1, ½ and 2 and the degrees 1 and 2 on held-out rows (six
// candidates) and stores the σ and degree it chose, one of them; Search
// disabled fits the rule's σ and degree 1 alone; a set Degree leaves
// the three σ candidates.
func TestSearchSigma(t *testing.T) {
	X, y := learnertest.Rings(300, 0, 0, 1, 5)
	plain := fit(t, X, y, mfga.Config{Features: 10, Search: learners.Disabled})
	m := fit(t, X, y, mfga.Config{Features: 10})
	s0, s := plain.Config().Sigma, m.Config().Sigma
	if st := m.FitStats(); st.Candidates != 6 || st.HeldOutRows != 150 {
		t.Errorf("stats %+v, want 6 candidates on 150 rows", st)
	}
	if s != s0 && s != 0.5*s0 && s != 2*s0 {
		t.Errorf("σ %v, want the rule's %v times 1, ½ or 2", s, s0)
	}
	if p := m.Config().Degree; p != 1 && p != 2 {
		t.Errorf("degree %d, want 1 or 2", p)
	}
	if st := plain.FitStats(); st.Candidates != 1 || plain.Config().Degree != 1 {
		t.Errorf("without the search: %+v, degree %d; want 1 candidate, degree 1", st, plain.Config().Degree)
	}
	if st := fit(t, X, y, mfga.Config{Features: 10, Degree: 1}).FitStats(); st.Candidates != 3 {
		t.Errorf("Degree set: %+v, want 3 candidates", st)
	}
}

// TestSearchDegree: on the XOR of two signs, which a degree-1 dictionary
// cannot express (its features are even in each input times one odd
// coordinate at most) and the product x₁x₂ of degree 2 does, the default
// fit keeps degree 2.
func TestSearchDegree(t *testing.T) {
	X, y := xor(600, 3)
	Xt, yt := xor(2000, 4)
	m := fit(t, X, y, mfga.Config{Features: 10})
	d1 := fit(t, X, y, mfga.Config{Features: 10, Degree: 1})
	t.Logf("degree %d: accuracy %.3f; degree 1: %.3f", m.Config().Degree, learnertest.Accuracy(m, Xt, yt), learnertest.Accuracy(d1, Xt, yt))
	if m.Config().Degree != 2 {
		t.Errorf("the search kept degree %d, want 2", m.Config().Degree)
	}
}
