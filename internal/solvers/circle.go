package solvers

import (
	"math"
	"sort"
)

// Default settings of MinimizeCircle; a zero field in CircleOptions selects them.
const (
	// DefaultCircleGridPoints is the size of the coarse grid.
	DefaultCircleGridPoints = 64
	// DefaultCircleTol is the absolute tolerance on the minimiser.
	DefaultCircleTol = 1e-10
	// DefaultCircleCandidates is the number of bracketed local minima refined.
	DefaultCircleCandidates = 3
	// DefaultCircleMaxIterations bounds the evaluations of one refinement.
	DefaultCircleMaxIterations = 100
)

// maxCircleGrid bounds the stack-allocated grid.
const maxCircleGrid = 1024

// CircleOptions configures MinimizeCircle. The zero value selects the defaults.
type CircleOptions struct {
	// GridPoints is the number of equally spaced grid points on [−π, π)
	// (0 → 64; values are clamped to [4, 1024]).
	GridPoints int
	// Tol is the absolute tolerance on the minimiser (0 or negative → 1e-10).
	Tol float64
	// Candidates is how many bracketed local minima, best grid value first,
	// are refined (0 or negative → 3).
	Candidates int
	// MaxIterations bounds the evaluations of one refinement (0 or negative → 100).
	MaxIterations int
}

// MinimizeCircle returns a global minimiser bmin ∈ [−π, π) of a smooth
// 2π-periodic function and fmin = f(bmin). f returns the value and the
// derivative at b.
//
// Method: f and f′ are evaluated on an equally spaced grid; every grid
// interval where f′ changes sign from − to + (taken cyclically, so minima
// near ±π are handled) brackets a local minimum. The Candidates brackets with
// the lowest endpoint values are refined by a safeguarded secant (Newton with
// a secant estimate of f″) iteration on f′ — Brent's zeroin: inverse quadratic
// interpolation or secant steps when they stay inside the bracket and shrink
// it fast enough, bisection otherwise — down to Tol. The lowest value seen
// (grid points included) wins, so the result is never worse than the grid.
//
// A constant function returns the first grid point, −π. NaN values are
// treated as +Inf. The minimum is global provided the grid resolves f (no
// two critical points of f within one grid step of each other hide a deeper
// minimum); raise GridPoints for highly oscillatory functions.
// MinimizeCircle allocates nothing for GridPoints ≤ 1024. Every product that
// feeds an addition is rounded on its own, so given an f with the same bits
// everywhere the result has the same bits on every architecture.
func MinimizeCircle(f func(b float64) (val, deriv float64), opt CircleOptions) (bmin, fmin float64) {
	n := opt.GridPoints
	if n == 0 {
		n = DefaultCircleGridPoints
	}
	n = min(max(n, 4), maxCircleGrid)
	tol := opt.Tol
	if !(tol > 0) {
		tol = DefaultCircleTol
	}
	nc := opt.Candidates
	if nc <= 0 {
		nc = DefaultCircleCandidates
	}
	maxIt := opt.MaxIterations
	if maxIt <= 0 {
		maxIt = DefaultCircleMaxIterations
	}

	var vals, ders [maxCircleGrid]float64
	h := 2 * math.Pi / float64(n)
	bmin, fmin = -math.Pi, math.Inf(1)
	for i := 0; i < n; i++ {
		b := -math.Pi + float64(float64(i)*h)
		v, g := f(b)
		if math.IsNaN(v) {
			v = math.Inf(1)
		}
		vals[i], ders[i] = v, g
		if v < fmin {
			bmin, fmin = b, v
		}
	}

	// The best nc brackets of a local minimum (CircleBrackets).
	var best [16]int
	nb := CircleBrackets(vals[:n], ders[:n], best[:min(nc, len(best))])

	for _, i := range best[:nb] {
		a := -math.Pi + float64(float64(i)*h)
		b, v := refineCircle(f, a, a+h, ders[i], ders[(i+1)%n], tol, maxIt)
		if v <= fmin { // ties: prefer the refined point
			bmin, fmin = b, v
		}
	}
	return WrapAngle(bmin), fmin
}

// WrapAngle maps b into [−π, π): the form in which MinimizeCircle, and
// callers that search the circle themselves, return a phase.
func WrapAngle(b float64) float64 {
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

// refineCircle finds a zero of f′ in [a, c] with ga = f′(a) < 0 ≤ gc = f′(c)
// by Brent's zeroin, and returns the lowest-valued point it evaluated.
func refineCircle(f func(float64) (float64, float64), a, c, ga, gc, tol float64, maxIt int) (bmin, fmin float64) {
	if gc == 0 {
		v, _ := f(c)
		if math.IsNaN(v) {
			v = math.Inf(1)
		}
		return c, v
	}
	bmin, fmin = a, math.Inf(1)
	// Brent's zeroin in the notation of Brent (1973): b is the best
	// estimate, a the previous one, c the contrapoint (g(b)·g(c) ≤ 0).
	b, gb := c, gc
	c, gc = a, ga
	a, ga = c, gc
	d := b - a
	e := d
	for it := 0; it < maxIt; it++ {
		if math.Abs(gc) < math.Abs(gb) {
			a, b, c = b, c, b
			ga, gb, gc = gb, gc, gb
		}
		tol1 := float64(2*2.220446049250313e-16*math.Abs(b)) + float64(0.5*tol)
		m := float64(0.5 * (c - b))
		if math.Abs(m) <= tol1 || gb == 0 {
			break
		}
		if math.Abs(e) >= tol1 && math.Abs(ga) > math.Abs(gb) {
			var p, q float64
			s := gb / ga
			if a == c {
				p = 2 * m * s // secant
				q = 1 - s
			} else {
				qq := ga / gc // inverse quadratic interpolation
				r := gb / gc
				p = s * (float64(2*m*qq*(qq-r)) - float64((b-a)*(r-1)))
				q = (qq - 1) * (r - 1) * (s - 1)
			}
			if p > 0 {
				q = -q
			} else {
				p = -p
			}
			if 2*p < math.Min(float64(3*m*q)-math.Abs(tol1*q), math.Abs(e*q)) {
				e, d = d, p/q
			} else {
				d, e = m, m // bisection
			}
		} else {
			d, e = m, m
		}
		a, ga = b, gb
		if math.Abs(d) > tol1 {
			b += d
		} else if m > 0 {
			b += tol1
		} else {
			b -= tol1
		}
		var v float64
		v, gb = f(b)
		if math.IsNaN(v) {
			v = math.Inf(1)
		}
		if v <= fmin { // ties (flat bottom in floating point): prefer the latest
			bmin, fmin = b, v
		}
		if math.IsNaN(gb) {
			break
		}
		if (gb > 0) == (gc > 0) {
			c, gc = a, ga
			d = b - a
			e = d
		}
	}
	return bmin, fmin
}

// CircleBrackets finds the grid intervals [i, i+1] (cyclic, over the n =
// len(vals) points) that bracket a local minimum, ders[i] < 0 ≤ ders[i+1],
// writes the best len(dst) of them to dst ordered by min(vals[i],
// vals[i+1]) (ties: the lower i first) and returns how many it wrote. It is
// MinimizeCircle's choice of what to refine, exported for callers that
// evaluate the grid themselves (several phases per pass over the data).
func CircleBrackets(vals, ders []float64, dst []int) int {
	n, nb := len(vals), 0
	key := func(i int) float64 { return math.Min(vals[i], vals[(i+1)%n]) }
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		if !(ders[i] < 0 && ders[j] >= 0) {
			continue
		}
		k := key(i)
		if nb == len(dst) && (nb == 0 || k >= key(dst[nb-1])) {
			continue
		}
		if nb < len(dst) {
			nb++
		}
		pos := sort.Search(nb-1, func(p int) bool { return key(dst[p]) > k })
		copy(dst[pos+1:nb], dst[pos:nb-1])
		dst[pos] = i
	}
	return nb
}
