package srff

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/featmap"
)

// TestGammaGradient checks the analytic γ gradient of the γ-step
// objective against central finite differences.
func TestGammaGradient(t *testing.T) {
	const n, d, D = 60, 5, 40
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for i := range y {
		y[i] = math.Sin(x[i*d]) + 0.1*r.NormFloat64()
	}
	sc, err := featmap.NewScaled(d, D, false, 3)
	if err != nil {
		t.Fatal(err)
	}
	pr := newProblem(featmap.Dense(n, d, x), y, d)
	ev := &evaluator{sc: sc, X: pr.X, yc: pr.yc, z: make([]float64, n*D), r: make([]float64, n), u: make([]float64, n)}
	gamma := []float64{0.9, 0.3, 0.5, 0.1, 0.2}
	a := make([]float64, D)
	if _, err := ev.aStep(a, gamma, 1e-3); err != nil {
		t.Fatal(err)
	}
	ev.a = a
	grad := make([]float64, d)
	ev.f(gamma, grad)
	scratch := make([]float64, d)
	for k := range gamma {
		const h = 1e-6
		g := append([]float64(nil), gamma...)
		g[k] += h
		fp := ev.f(g, scratch)
		g[k] -= 2 * h
		fm := ev.f(g, scratch)
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-grad[k]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("∂J/∂γ_%d: analytic %.9g, finite differences %.9g", k, grad[k], fd)
		}
	}
}
