package fogd_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/fogd"
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
// boundary in d = 20 inputs. Measured test error 0.159 (one epoch); with the earlier
// default γ = 1/2 (nearly diagonal at d = 20) it
// was 0.485, chance.
func TestDefaultsScaleWithInputs(t *testing.T) {
	const n, d = 3000, 20
	X, y := smooth(n, d, 1)
	Xt, yt := smooth(1000, d, 2)
	m, err := fogd.Fit(context.Background(), featmap.Dense(n, d, X), y, fogd.Config{})
	if err != nil {
		t.Fatal(err)
	}
	pred := make([]float64, len(yt))
	if err := m.PredictBatch(pred, featmap.Dense(len(yt), d, Xt)); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, v := range yt {
		if pred[i] != v {
			bad++
		}
	}
	e := float64(bad) / float64(len(yt))
	t.Logf("test error %.3f", e)
	if e > 0.25 {
		t.Errorf("test error %.3f with the default γ at d = %d, want ≤ 0.25", e, d)
	}
}
