package rfselect

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// TestFitScoresCentredLabels: on imbalanced classes (10 % positive) Fit
// selects the candidates EERF and LKRF rank on the centred ±1 labels, and
// those differ from the ones the raw labels would pick (else the test
// could not tell the two apart).
func TestFitScoresCentredLabels(t *testing.T) {
	const n, d, M, M0 = 300, 3, 8, 80
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, n*d)
	y := make([]float64, n)
	for i := range y {
		for k := 0; k < d; k++ {
			xs[i*d+k] = r.NormFloat64()
		}
		y[i] = -1
		if i%10 == 0 {
			y[i] = 1
			xs[i*d] += 1.5
		}
	}
	X := featmap.Dense(n, d, xs)
	_, _, std, err := learners.Standardize(X)
	if err != nil {
		t.Fatal(err)
	}
	Xs := featmap.Dense(n, d, std)
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= n
	centred := make([]float64, n)
	for i, v := range y {
		centred[i] = v - mean
	}
	for _, sel := range []Selection{EERFSelection, LKRFSelection} {
		cfg := Config{Selection: sel, Features: M, Candidates: M0, Seed: 5, Task: learners.Binary}
		m, err := Fit(context.Background(), X, y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		c := m.Config()
		pick := func(target []float64) *featmap.RFF {
			var f *featmap.RFF
			var err error
			if sel == LKRFSelection {
				f, err = LKRF(Xs, target, M0, M, c.Gamma, c.Rho, c.Seed)
			} else {
				f, err = EERF(Xs, target, M0, M, c.Gamma, c.Seed)
			}
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		got, _ := m.Body().RFF.Weights()
		want, _ := pick(centred).Weights()
		raw, _ := pick(y).Weights()
		if !slices.Equal(got, want) {
			t.Errorf("%s: Fit did not select the candidates ranked on the centred labels", sel)
		}
		if slices.Equal(want, raw) {
			t.Errorf("%s: centred and raw labels select the same candidates: the test data do not separate them", sel)
		}
	}
}
