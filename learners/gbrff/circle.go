package gbrff

import (
	"math"
	"sort"
)

// manyEval evaluates f and f′ at every phase of bs in one pass over the
// data (exploss.Phase.EvalMany), writing them to vals and ders; each value
// must be the bits a one-phase evaluation at that b gives.
type manyEval func(bs, vals, ders []float64) error

// circleSearch is solvers.MinimizeCircle with GridPoints = grid (at most 64), Candidates
// = cand, Tol = tol and the default MaxIterations (100), returning the same
// bits, but batched: the grid is one call of eval (one pass over the data
// instead of grid), and the cand bracket refinements, which are independent
// of one another, run in lockstep, each pass evaluating the next point of
// every refinement still running. Each refinement is the same Brent zeroin
// on f′ (solvers' refineCircle, reproduced in zeroin), and the results are
// combined in the same order, so the minimiser is the same bits as the
// sequential search (TestCircleSearchMatchesSolvers). It returns the
// minimiser in [−π, π) and the number of passes and of phases evaluated.
func circleSearch(eval manyEval, grid, cand int, tol float64) (bmin float64, passes, evals int, err error) {
	const maxIt = 100 // solvers.DefaultCircleMaxIterations
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
	cand = min(max(cand, 1), len(best))
	nb := 0
	key := func(i int) float64 { return math.Min(vals[i], vals[(i+1)%n]) }
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		if !(ders[i] < 0 && ders[j] >= 0) {
			continue
		}
		k := key(i)
		if nb == cand && k >= key(best[nb-1]) {
			continue
		}
		if nb < cand {
			nb++
		}
		pos := sort.Search(nb-1, func(p int) bool { return key(best[p]) > k })
		copy(best[pos+1:nb], best[pos:nb-1])
		best[pos] = i
	}

	var zs [16]zeroin
	for r, i := range best[:nb] {
		a := -math.Pi + float64(float64(i)*h)
		zs[r].start(a, a+h, ders[i], ders[(i+1)%n], tol, maxIt)
	}
	var idx [16]int
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
	return wrapAngle(bmin), passes, evals, nil
}

// zeroin is solvers' refineCircle (Brent's zeroin on f′ in a bracket
// [a, c] with f′(a) < 0 ≤ f′(c), keeping the lowest-valued point it
// evaluated) turned inside out: next returns the point to evaluate, take
// receives f and f′ there. The arithmetic is refineCircle's, operation for
// operation.
type zeroin struct {
	a, b, c, ga, gb, gc, d, e float64
	tol                       float64
	it, maxIt                 int
	bmin, fmin                float64
	done, atC                 bool // atC: gc == 0 at the start, evaluate c once
}

func (z *zeroin) start(a, c, ga, gc, tol float64, maxIt int) {
	*z = zeroin{tol: tol, maxIt: maxIt}
	if gc == 0 {
		z.atC, z.b = true, c
		return
	}
	z.bmin, z.fmin = a, math.Inf(1)
	z.b, z.gb = c, gc
	z.c, z.gc = a, ga
	z.a, z.ga = z.c, z.gc
	z.d = z.b - z.a
	z.e = z.d
}

// next returns the next point to evaluate, or false when the refinement is
// over (bmin, fmin then hold its result).
func (z *zeroin) next() (float64, bool) {
	if z.done {
		return 0, false
	}
	if z.atC {
		return z.b, true
	}
	if z.it >= z.maxIt {
		z.done = true
		return 0, false
	}
	if math.Abs(z.gc) < math.Abs(z.gb) {
		z.a, z.b, z.c = z.b, z.c, z.b
		z.ga, z.gb, z.gc = z.gb, z.gc, z.gb
	}
	tol1 := float64(2*2.220446049250313e-16*math.Abs(z.b)) + float64(0.5*z.tol)
	m := float64(0.5 * (z.c - z.b))
	if math.Abs(m) <= tol1 || z.gb == 0 {
		z.done = true
		return 0, false
	}
	if math.Abs(z.e) >= tol1 && math.Abs(z.ga) > math.Abs(z.gb) {
		var p, q float64
		s := z.gb / z.ga
		if z.a == z.c {
			p = 2 * m * s // secant
			q = 1 - s
		} else {
			qq := z.ga / z.gc // inverse quadratic interpolation
			r := z.gb / z.gc
			p = s * (float64(2*m*qq*(qq-r)) - float64((z.b-z.a)*(r-1)))
			q = (qq - 1) * (r - 1) * (s - 1)
		}
		if p > 0 {
			q = -q
		} else {
			p = -p
		}
		if 2*p < math.Min(float64(3*m*q)-math.Abs(tol1*q), math.Abs(z.e*q)) {
			z.e, z.d = z.d, p/q
		} else {
			z.d, z.e = m, m // bisection
		}
	} else {
		z.d, z.e = m, m
	}
	z.a, z.ga = z.b, z.gb
	if math.Abs(z.d) > tol1 {
		z.b += z.d
	} else if m > 0 {
		z.b += tol1
	} else {
		z.b -= tol1
	}
	return z.b, true
}

// take receives f(b) and f′(b) for the point next returned.
func (z *zeroin) take(v, g float64) {
	if math.IsNaN(v) {
		v = math.Inf(1)
	}
	if z.atC {
		z.bmin, z.fmin, z.done = z.b, v, true
		return
	}
	z.it++
	z.gb = g
	if v <= z.fmin { // ties (flat bottom in floating point): prefer the latest
		z.bmin, z.fmin = z.b, v
	}
	if math.IsNaN(z.gb) {
		z.done = true
		return
	}
	if (z.gb > 0) == (z.gc > 0) {
		z.c, z.gc = z.a, z.ga
		z.d = z.b - z.a
		z.e = z.d
	}
}

// wrapAngle maps b into [−π, π) (solvers' wrapAngle).
func wrapAngle(b float64) float64 {
	if b >= -math.Pi && b < math.Pi {
		return b
	}
	b = math.Mod(b+math.Pi, 2*math.Pi)
	if b < 0 {
		b += 2 * math.Pi
	}
	b -= math.Pi
	if b >= math.Pi {
		b = -math.Pi
	}
	return b
}
