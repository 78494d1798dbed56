package gbrff

import (
	"math"

	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/internal/xmath"
)

// manyEval evaluates f and f′ at every phase of bs in one pass over the
// data (exploss.Phase.EvalMany), writing them to vals and ders.
type manyEval func(bs, vals, ders []float64) error

// circleSearch minimises a smooth 2π-periodic f on [−π, π): f and f′ on a
// grid of `grid` equally spaced points (at most 64) in one call of eval
// (one pass over the data), then cubic Hermite steps (type hermite) in the
// cand best brackets (grid intervals where f′ goes from − to +, ranked by
// their lower endpoint value, as solvers.MinimizeCircle ranks them), one
// call of eval per step for all the brackets still refining. The lowest
// value evaluated wins (ties: the refined point), so the result is never
// worse than the grid. It returns the minimiser, wrapped into [−π, π), and
// the number of passes and of phases evaluated. Every operation is rounded
// on its own (xmath.Log, explicit float64 conversions), so the result has
// the same bits on every architecture.
//
// Against solvers.MinimizeCircle refining the two brackets to 1e-3 by
// Brent's zeroin on f′ (14.6 phases in 5.4 passes per GBRFF2 round at
// n = 10⁵), this evaluates about 10.4 phases in 2.4 passes. On the GBRFF2
// fits of TestPhaseSearchGlobal the value it reaches is within 3e-5
// relative of the minimum (zeroin: 1.5e-7): f(b) − f(b*) ≈ ½f″(b − b*)²,
// and the ω search that follows stops at a gain of 1e-2 of the mean weight
// (freqFuncTol), far above that.
func circleSearch(eval manyEval, grid, cand int) (bmin float64, passes, evals int, err error) {
	var bs, vals, ders [64]float64
	n := min(max(grid, 4), len(bs))
	h := 2 * math.Pi / float64(n)
	for i := 0; i < n; i++ {
		bs[i] = -math.Pi + float64(float64(i)*h)
	}
	if err := eval(bs[:n], vals[:n], ders[:n]); err != nil {
		return 0, 0, 0, err
	}
	passes, evals = 1, n
	bmin, fmin := -math.Pi, math.Inf(1)
	for i := 0; i < n; i++ {
		if math.IsNaN(vals[i]) {
			vals[i] = math.Inf(1)
		}
		if vals[i] < fmin {
			bmin, fmin = bs[i], vals[i]
		}
	}

	// The brackets, chosen as solvers.MinimizeCircle chooses them.
	var best [16]int
	nb := solvers.CircleBrackets(vals[:n], ders[:n], best[:min(max(cand, 1), len(best))])

	var zs [16]hermite
	var idx [16]int
	for r, i := range best[:nb] {
		j := (i + 1) % n
		zs[r].start(bs[i], bs[i]+h, vals[i], vals[j], ders[i], ders[j])
	}
	for {
		m := 0
		for r := range zs[:nb] {
			if b, ok := zs[r].next(); ok {
				bs[m], idx[m] = b, r
				m++
			}
		}
		if m == 0 {
			break
		}
		if err := eval(bs[:m], vals[:m], ders[:m]); err != nil {
			return 0, 0, 0, err
		}
		passes++
		evals += m
		for j := 0; j < m; j++ {
			zs[idx[j]].take(vals[j], ders[j])
		}
	}
	for r := range zs[:nb] {
		if zs[r].fmin <= fmin { // ties: prefer the refined point
			bmin, fmin = zs[r].bmin, zs[r].fmin
		}
	}
	return solvers.WrapAngle(bmin), passes, evals, nil
}

// hermite refines a bracket [a, c] with f′(a) < 0 ≤ f′(c) by cubic Hermite
// steps on log f (see circleSearch): each evaluates the minimiser of the
// cubic through log f and f′/f at the bracket's ends, which then replaces
// the end on its side (by the sign of f′ there). The first step is always
// taken; a further one only while the next minimiser lies more than
// hermiteTol from the last point evaluated (which is then within about
// that of the minimiser: the steps converge superlinearly), at most
// hermiteSteps in all. It keeps the lowest-valued point evaluated.
type hermite struct {
	a, c, la, lc, ga, gc float64 // ends, log f and (log f)′ there
	b                    float64 // the last point evaluated
	steps                int
	bmin, fmin           float64
	done                 bool
}

const (
	hermiteTol   = 1e-2
	hermiteSteps = 6
)

func (z *hermite) start(a, c, fa, fc, ga, gc float64) {
	*z = hermite{a: a, c: c, fmin: math.Inf(1)}
	// The minimum is the grid point c, or an end has no finite log f.
	z.done = gc == 0 || !(fa > 0 && fc > 0) || math.IsInf(fa, 1) || math.IsInf(fc, 1)
	if !z.done {
		z.la, z.lc, z.ga, z.gc = xmath.Log(fa), xmath.Log(fc), ga/fa, gc/fc
	}
}

// next returns the next point to evaluate, or false when the refinement is
// over (bmin and fmin then hold its result).
func (z *hermite) next() (float64, bool) {
	if z.done || z.steps >= hermiteSteps {
		z.done = true
		return 0, false
	}
	b := hermiteMin(z.a, z.c-z.a, z.la, z.lc, z.ga, z.gc)
	if z.steps > 0 && math.Abs(b-z.b) <= hermiteTol {
		z.done = true
		return 0, false
	}
	z.b = b
	return b, true
}

// take receives f and f′ at the point next returned.
func (z *hermite) take(v, g float64) {
	z.steps++
	if math.IsNaN(v) {
		v = math.Inf(1)
	}
	if v <= z.fmin { // ties: prefer the latest
		z.bmin, z.fmin = z.b, v
	}
	switch {
	case !(v > 0) || math.IsInf(v, 1) || math.IsNaN(g):
		z.done = true
	case g < 0:
		z.a, z.la, z.ga = z.b, xmath.Log(v), g/v
	case g > 0:
		z.c, z.lc, z.gc = z.b, xmath.Log(v), g/v
	default: // f′ = 0: the minimiser
		z.done = true
	}
}

// hermiteMin returns the minimiser in (a, a + h) of the cubic p with
// p(a) = fa, p′(a) = ga < 0, p(a + h) = fc, p′(a + h) = gc > 0, kept at
// least h/100 from either end; where the cubic gives no such point, the
// zero of the secant of p′.
func hermiteMin(a, h, fa, fc, ga, gc float64) float64 {
	// On t ∈ [0, 1]: p = fa + m0·t + A·t² + B·t³; the minimum is the root of
	// p′ = m0 + 2A·t + 3B·t² where p″ > 0: t = −m0 / (A + √(A² − 3B·m0)).
	m0, m1 := float64(ga*h), float64(gc*h)
	delta := fc - fa
	A := float64(3*delta) - float64(2*m0) - m1
	B := m0 + m1 - float64(2*delta)
	t := -m0 / (A + math.Sqrt(float64(A*A)-float64(3*B*m0)))
	if !(t > 0 && t < 1) {
		t = ga / (ga - gc)
	}
	if !(t > 0 && t < 1) {
		t = 0.5
	}
	t = min(max(t, 0.01), 0.99)
	return a + float64(t*h)
}
