package rrf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

// TestBatchOfOne: a mini-batch of one sample (accumulate + apply, Fit with
// BatchSize > 1) takes bit for bit the online step (step, Update and Fit
// with BatchSize 1), so the two paths are one rule.
func TestBatchOfOne(t *testing.T) {
	const d = 5
	for _, c := range []Config{
		{Features: 13, EtaGamma: 0.05},
		{Features: 8, Loss: Logistic, EtaGamma: 0.05},
		{Features: 9, Classes: []float64{0, 1, 2}},
		{Features: 9, Classes: []float64{0, 1, 2, 3}, Loss: Logistic, FixedWidths: true},
		{Features: 7, Task: learners.Regression},
		{Features: 7, Task: learners.Regression, Loss: L1, FixedWidths: true},
	} {
		c = c.resolve(d)
		C := max(1, len(c.Classes))
		if C == 2 {
			C = 1
		}
		a, b := newParams(d, c, C), newParams(d, c, C)
		sa, sb, g := a.newWork(), b.newWork(), b.newGrads()
		widths := !c.FixedWidths
		r := rand.New(rand.NewPCG(1, 2))
		x := make([]float64, d)
		for i := 0; i < 300; i++ {
			for j := range x {
				x[j] = 2 * r.NormFloat64()
			}
			y := float64(2*r.IntN(2) - 1)
			switch {
			case C > 1:
				y = float64(r.IntN(C))
			case c.Task == learners.Regression:
				y = 3 * r.NormFloat64()
			}
			a.features(sa, x)
			a.scores(sa)
			_, r0, r1, g0, g1 := a.lossGrad(sa, y)
			a.step(sa, r0, r1, g0, g1, &c, widths)
			b.features(sb, x)
			b.scores(sb)
			_, r0, r1, g0, g1 = b.lossGrad(sb, y)
			g.reset()
			b.accumulate(g, sb, r0, r1, g0, g1, &c, widths)
			b.apply(g, 1, &c, widths)
		}
		bits := func(v []float64) []uint64 {
			u := make([]uint64, len(v))
			for i, f := range v {
				u[i] = math.Float64bits(f)
			}
			return u
		}
		for _, p := range []struct {
			name string
			x, y []float64
		}{{"w", a.w, b.w}, {"b", a.b, b.b}, {"lg", a.lg, b.lg}} {
			if !slices.Equal(bits(p.x), bits(p.y)) {
				t.Errorf("%+v: %s differs between step and a batch of one", c, p.name)
			}
		}
		if widths && a.lg[0] == math.Log(c.Width) {
			t.Errorf("%+v: the widths did not move", c)
		}
	}
}
