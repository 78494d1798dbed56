package gbrff

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/exploss"
	"github.com/rfkit/rfkit/internal/solvers"
)

// TestCircleSearch: on phase objectives of random data and on analytic
// functions (a minimum exactly at a grid point, four equal minima, a
// constant, NaN values, a function that is not positive), the search
// returns a point in [−π, π) never worse than the best grid value, in at
// most 1 + hermiteSteps passes. Where the weights are moderate (|ỹ| ~ 1 or
// less) and on the positive analytic functions its value is within 1e-4
// relative of the minimum solvers.MinimizeCircle finds on a 256-point grid
// refining 8 brackets to 1e-10; with extreme weights (|ỹ| ~ 30, so f spans
// dozens of orders of magnitude within a bracket) within 2 % of the
// 8-point search that refines to 1e-3 by Brent's zeroin, which it replaces
// (the 8-point grid itself can miss the global minimum there: case 11).
func TestCircleSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	type tc struct {
		f    func(b float64) (float64, float64)
		mild bool
	}
	var cases []tc
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
			cases = append(cases, tc{ph.Eval, scale <= 1})
		}
	}
	cases = append(cases,
		tc{func(b float64) (float64, float64) { return 2 + math.Cos(4*b), -4 * math.Sin(4*b) }, true},
		tc{func(b float64) (float64, float64) {
			e := math.Exp(3 * math.Cos(b+0.3))
			return e, -3 * math.Sin(b+0.3) * e
		}, true},
		tc{func(b float64) (float64, float64) { return math.Cos(b + 0.3), -math.Sin(b + 0.3) }, false}, // not positive: the grid only
		tc{func(b float64) (float64, float64) { return 1, 0 }, true},
		tc{func(b float64) (float64, float64) {
			if b > 1 {
				return math.NaN(), math.NaN()
			}
			return 2 + math.Cos(b-0.5), -math.Sin(b - 0.5)
		}, true})
	for k, c := range cases {
		for _, cand := range []int{1, 2, 3} {
			gridMin := math.Inf(1)
			b, passes, evals, err := circleSearch(func(bs, v, g []float64) error {
				for j, b := range bs {
					v[j], g[j] = c.f(b)
					if len(bs) == 8 && v[j] < gridMin {
						gridMin = v[j]
					}
				}
				return nil
			}, 8, cand)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := c.f(b)
			if !(b >= -math.Pi && b < math.Pi) || got > gridMin || passes < 1 || passes > 1+hermiteSteps || evals > 8+cand*hermiteSteps {
				t.Errorf("case %d, %d candidates: f(%v) = %v (grid %v) after %d evaluations in %d passes", k, cand, b, got, gridMin, evals, passes)
			}
			_, fine := solvers.MinimizeCircle(c.f, solvers.CircleOptions{GridPoints: 256, Candidates: 8, Tol: 1e-10})
			_, zeroin := solvers.MinimizeCircle(c.f, solvers.CircleOptions{GridPoints: 8, Candidates: cand, Tol: 1e-3})
			if c.mild && got-fine > 1e-4*math.Abs(fine) || !c.mild && k < 12 && got > zeroin*1.02 {
				t.Errorf("case %d, %d candidates: f = %v, fine search %v, zeroin %v", k, cand, got, fine, zeroin)
			}
		}
	}
}
