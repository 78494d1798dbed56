package rrf_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/rrf"
)

// smooth: d standard normal inputs, label sign(x₀ + x₁ + ½·sin 2x₂).
func smooth(n, d int, seed uint64) ([]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 11))
	X, y := make([]float64, n*d), make([]float64, n)
	for i := range y {
		for j := 0; j < d; j++ {
			X[i*d+j] = r.NormFloat64()
		}
		y[i] = -1
		if X[i*d]+X[i*d+1]+0.5*math.Sin(2*X[i*d+2]) > 0 {
			y[i] = 1
		}
	}
	return X, y
}

// TestDefaultsScaleWithInputs: Fit with the zero Config learns a smooth
// boundary in d = 20 inputs. Measured test error 0.085; with the earlier
// default width 1 (kernel exp(−‖x−x'‖²/2), nearly diagonal at d = 20) it
// was 0.499, chance.
func TestDefaultsScaleWithInputs(t *testing.T) {
	const n, d = 3000, 20
	X, y := smooth(n, d, 1)
	Xt, yt := smooth(1000, d, 2)
	m, err := rrf.Fit(context.Background(), featmap.Dense(n, d, X), y, rrf.Config{})
	if err != nil {
		t.Fatal(err)
	}
	e := errRate(t, m, Xt, yt, d)
	t.Logf("test error %.3f", e)
	if e > 0.15 {
		t.Errorf("test error %.3f with the default width at d = %d, want ≤ 0.15", e, d)
	}
}
