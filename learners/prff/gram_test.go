package prff_test

import (
	"context"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/prff"
)

// gramError is (1/n²)‖K − ZZᵀ‖²_F, K the exact Gaussian kernel exp(−γ‖x−x'‖²)
// and Z the features of f.
func gramError(t testing.TB, X featmap.Matrix, gamma float64, f *featmap.RFF) float64 {
	t.Helper()
	n, D := X.Rows, f.Outputs()
	z := make([]float64, n*D)
	if err := f.Transform(featmap.Dense(n, D, z), X); err != nil {
		t.Fatal(err)
	}
	var tot float64
	for i := 0; i < n; i++ {
		xi, zi := X.Row(i), z[i*D:(i+1)*D]
		for l := 0; l < n; l++ {
			var dist, dot float64
			for k, v := range X.Row(l) {
				dist += (xi[k] - v) * (xi[k] - v)
			}
			for j, v := range z[l*D : (l+1)*D] {
				dot += zi[j] * v
			}
			e := expNeg(gamma*dist) - dot
			tot += e * e
		}
	}
	return tot / float64(n) / float64(n)
}

// gaussian returns synth.Gaussian(n, d, seed) as a matrix.
func gaussian(t testing.TB, n, d int, seed uint64) featmap.Matrix {
	t.Helper()
	s := learnertest.Must(synth.Gaussian(n, d, seed))
	return featmap.Dense(n, d, s.X)
}

// TestGramBelowRFF: on N(0, I) data (the paper's Fig. 1 setting, smaller),
// the learned map approximates the Gram matrix better than plain RFF with
// the same γ and D, for every seed. Measured ratios PRFF/RFF (seeds 1–3);
// the thresholds leave a margin over the worst seed.
//
//	d = 10,  D = 40:  0.442, 0.461, 0.501 (threshold 0.6)
//	d = 10,  D = 160: 0.480, 0.394, 0.525 (threshold 0.6)
//	d = 100, D = 40:  0.598, 0.690, 0.418 (threshold 0.85; skipped with -short)
//
// D = 160 on 400 rows reuses each of the 4 mini-batches 40 times: with the
// earlier defaults (λ = 1e-3, 1000 iterations) its mean ratio was 3.4, the
// error growing with D (see the package doc).
func TestGramBelowRFF(t *testing.T) {
	cases := []struct {
		n, d, D int
		max     float64 // threshold on the worst PRFF/RFF ratio
	}{
		{400, 10, 40, 0.6},
		{400, 10, 160, 0.6},
		{400, 100, 40, 0.85},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		seeds := uint64(3)
		if raceEnabled {
			seeds = 1
		}
		for seed := uint64(1); seed <= seeds; seed++ {
			X := gaussian(t, c.n, c.d, seed)
			m, err := prff.Learn(context.Background(), X, prff.Config{Features: c.D, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			r, err := featmap.NewRFF(featmap.RFFConfig{Inputs: c.d, Features: c.D, Gamma: m.Gamma(), Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			ep, er := gramError(t, X, m.Gamma(), m.RFF()), gramError(t, X, m.Gamma(), r)
			t.Logf("d=%d D=%d seed %d: PRFF %.5f, RFF %.5f, ratio %.3f", c.d, c.D, seed, ep, er, ep/er)
			if ep/er > c.max {
				t.Errorf("d=%d D=%d seed %d: PRFF Gram error %.5f, RFF %.5f: ratio %.3f > %.2f", c.d, c.D, seed, ep, er, ep/er, c.max)
			}
		}
	}
}
