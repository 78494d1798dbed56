package kernel_test

import (
	"context"
	"math"
	"testing"

	"github.com/rfkit/rfkit/internal/refmath"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/kernel"
)

// TestRegression: y = sin(2x₁) + x₂²/2 + N(0, 0.1²) (mean predictor RMSE
// ≈ 0.89); kernel ridge on a 100-row subsample measured 0.133; threshold
// 0.4 (the defaults are the conformance suite's Accuracy).
func TestRegression(t *testing.T) {
	m := learnertest.SineRMSE(t, 0.4, func(X featmap.Matrix, y []float64) (*kernel.Model, error) {
		return kernel.Fit(context.Background(), X, y, kernel.Config{Task: learners.Regression, Subsample: 100, Seed: 2})
	})
	if m.Config().Subsample != 100 {
		t.Errorf("subsample resolved to %d", m.Config().Subsample)
	}
}

// TestLogisticStationary: at the optimum of kernel logistic regression the
// representer theorem gives m·λ·α_i = t_i·σ(−t_i·f(x_i)) for every
// subsample row (with the jitter and L-BFGS's tolerance: measured
// agreement 4.4e-6; tolerance 1e-3 of max |t_i σ|).
func TestLogisticStationary(t *testing.T) {
	X, y := learnertest.Rings(150, 0, 0, 1, 7)
	const lambda = 1e-2
	m := learnertest.MustFit(t, kernel.Fit, X, y, kernel.Config{Loss: kernel.Logistic, Lambda: lambda})
	f := learnertest.Parsed(t, m)
	alpha, _ := f.Array("alpha", -1)
	n := float64(len(alpha))
	var dev float64
	for i := range alpha {
		ti := 2*y[i] - 1 // labels 0/1 → ±1
		g := ti / (1 + math.Exp(ti*m.Score(X.Row(i))))
		dev = max(dev, math.Abs(n*lambda*alpha[i]-g))
	}
	t.Logf("max deviation %.2e", dev)
	if dev > 1e-3 {
		t.Errorf("stationarity violated by %v", dev)
	}
}

// TestMatchesDirectSolve: on all rows, the scores at the training rows are
// K·α + t̄ with α = (K + nλI)⁻¹(t − t̄) solved by gonum (LU), to 1e-9.
func TestMatchesDirectSolve(t *testing.T) {
	set := learnertest.Must(synth.ByName("se1", 80, 2))
	n, d := set.N, set.D
	const lambda = 1e-2
	m := learnertest.MustFit(t, kernel.Fit, featmap.Dense(n, d, set.X), set.Y, kernel.Config{Task: learners.Regression, Lambda: lambda, Search: learners.Disabled})
	if m.Config().Subsample != n || m.Config().Gamma != 1/float64(d) {
		t.Fatalf("config %+v", m.Config())
	}
	mean, scale := make([]float64, d), make([]float64, d)
	for k := 0; k < d; k++ {
		for i := 0; i < n; i++ {
			mean[k] += set.X[i*d+k] / float64(n)
		}
		for i := 0; i < n; i++ {
			v := set.X[i*d+k] - mean[k]
			scale[k] += v * v / float64(n)
		}
		scale[k] = math.Sqrt(scale[k])
	}
	z := func(i, k int) float64 { return (set.X[i*d+k] - mean[k]) / scale[k] }
	K := make([]float64, n*n)
	var tbar float64
	for _, v := range set.Y {
		tbar += v / float64(n)
	}
	r := make([]float64, n)
	for i := 0; i < n; i++ {
		r[i] = set.Y[i] - tbar
		for j := 0; j < n; j++ {
			var s float64
			for k := 0; k < d; k++ {
				s += (z(i, k) - z(j, k)) * (z(i, k) - z(j, k))
			}
			K[i*n+j] = math.Exp(-s / float64(d))
		}
	}
	A := append([]float64(nil), K...)
	for i := 0; i < n; i++ {
		A[i*n+i] += float64(n) * lambda
	}
	alpha, err := refmath.Solve(A, n, r)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		var f float64
		for j := 0; j < n; j++ {
			f += K[i*n+j] * alpha[j]
		}
		if got, want := m.Score(set.X[i*d:(i+1)*d]), f+tbar; math.Abs(got-want) > 1e-9 {
			t.Fatalf("row %d: score %v, direct solve %v", i, got, want)
		}
	}
}
