package rks_test

import (
	"context"
	"math"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rks"
)

// TestRegressionNotWorseThanMean: on SE1 (y = sin((x₁+x₃)²)·sin(x₇x₈x₉)
// + noise, 18 inputs, 3000 training rows), which 100 random features fit
// no better than the training mean, the default fit must not do worse
// than that mean on 1000 fresh rows: with λ fixed at 1e-3 (the search over
// γ alone) the test RMSE was 0.2784 and 0.2797 against the mean's 0.2728
// and 0.2761 (seeds 1 and 3).
func TestRegressionNotWorseThanMean(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		s := learnertest.Must(synth.SE1(4000, seed))
		const n = 3000
		Xtr, ytr := featmap.Dense(n, s.D, s.X[:n*s.D]), s.Y[:n]
		Xte, yte := featmap.Dense(s.N-n, s.D, s.X[n*s.D:]), s.Y[n:]
		m, err := rks.Fit(context.Background(), Xtr, ytr, rks.Config{Task: learners.Regression})
		if err != nil {
			t.Fatal(err)
		}
		mean := 0.0
		for _, v := range ytr {
			mean += v
		}
		mean /= n
		var sb, se float64
		for i, v := range yte {
			sb += (v - mean) * (v - mean)
			p := m.Predict(Xte.Row(i))
			se += (v - p) * (v - p)
		}
		base, got := math.Sqrt(sb/float64(len(yte))), math.Sqrt(se/float64(len(yte)))
		t.Logf("seed %d: test RMSE %.4f, the training mean's %.4f (γ %.3g, λ %g)", seed, got, base, m.Config().Gamma, m.Config().Lambda)
		if got > 1.01*base {
			t.Errorf("seed %d: test RMSE %.4f > 1.01 × the training mean's %.4f", seed, got, base)
		}
	}
}
