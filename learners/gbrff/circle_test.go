package gbrff

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/exploss"
	"github.com/rfkit/rfkit/solvers"
)

// TestCircleSearchMatchesSolvers: the batched circle search returns the
// bits of solvers.MinimizeCircle, with as many phases evaluated, on phase
// objectives of random data (weights from mild to extreme, so the search
// meets one and several minima) and on functions with a minimum exactly at
// a grid point (f′ = 0 there) and several equal minima.
func TestCircleSearchMatchesSolvers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	type fn func(b float64) (float64, float64)
	var cases []fn
	for _, n := range []int{1, 9, 300, 5000} {
		for _, scale := range []float64{0.01, 1, 30} {
			c, s, yt := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range c {
				p := r.NormFloat64() * 2
				c[i], s[i] = math.Cos(p), math.Sin(p)
				yt[i] = r.NormFloat64() * scale
			}
			ph, err := exploss.NewPhase(c, s, yt)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, ph.Eval)
		}
	}
	// cos(4b): four equal minima, one derivative exactly 0 on the grid.
	cases = append(cases, func(b float64) (float64, float64) { return math.Cos(4 * b), -4 * math.Sin(4*b) })
	cases = append(cases, func(b float64) (float64, float64) { return math.Cos(b + 0.3), -math.Sin(b + 0.3) })
	cases = append(cases, func(b float64) (float64, float64) { return 1, 0 })
	for k, f := range cases {
		for _, tol := range []float64{phaseSearch.Tol, 1e-10} {
			for _, cand := range []int{1, 2, 3} {
				var want int
				wb, _ := solvers.MinimizeCircle(func(b float64) (float64, float64) {
					want++
					return f(b)
				}, solvers.CircleOptions{GridPoints: 8, Candidates: cand, Tol: tol})
				b, passes, got, err := circleSearch(func(bs, v, g []float64) error {
					for j, b := range bs {
						v[j], g[j] = f(b)
					}
					return nil
				}, 8, cand, tol)
				if err != nil {
					t.Fatal(err)
				}
				if math.Float64bits(b) != math.Float64bits(wb) || got != want || passes < 1 || passes > got-7 {
					t.Errorf("case %d, tol %v, %d candidates: b = %v after %d evaluations in %d passes, MinimizeCircle %v after %d", k, tol, cand, b, got, passes, wb, want)
				}
			}
		}
	}
}
