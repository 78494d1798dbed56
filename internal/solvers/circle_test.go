package solvers

import (
	"math"
	"math/rand/v2"
	"testing"
)

// expCosSum returns f(b) = Σ exp(−y_i cos(p_i − b)) and its derivative.
func expCosSum(p, y []float64) func(b float64) (float64, float64) {
	return func(b float64) (float64, float64) {
		var v, g float64
		for i := range p {
			c, s := math.Cos(p[i]-b), math.Sin(p[i]-b)
			e := math.Exp(-y[i] * c)
			v += e
			g += -y[i] * s * e // d/db exp(−y cos(p−b)) = −y sin(p−b) e
		}
		return v, g
	}
}

// denseMin brute-forces the minimum on a fine grid, then polishes it by
// golden-section search in the best cell.
func denseMin(f func(float64) (float64, float64)) (float64, float64) {
	const n = 4000
	bb, fb := 0.0, math.Inf(1)
	for i := 0; i < n; i++ {
		b := -math.Pi + 2*math.Pi*float64(i)/n
		if v, _ := f(b); v < fb {
			bb, fb = b, v
		}
	}
	lo, hi := bb-2*math.Pi/n, bb+2*math.Pi/n
	g := (math.Sqrt(5) - 1) / 2
	for hi-lo > 1e-13 {
		a, c := hi-g*(hi-lo), lo+g*(hi-lo)
		fa, _ := f(a)
		fc, _ := f(c)
		if fa < fc {
			hi = c
		} else {
			lo = a
		}
	}
	b := 0.5 * (lo + hi)
	v, _ := f(b)
	return WrapAngle(b), v
}

func angleDist(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 2*math.Pi)
	return math.Min(d, 2*math.Pi-d)
}

func TestMinimizeCircleExpCos(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 80; trial++ {
		m := 1 + rng.IntN(12)
		p, y := make([]float64, m), make([]float64, m)
		for i := range p {
			p[i] = rng.Float64()*2*math.Pi - math.Pi
			y[i] = (rng.Float64()*2 - 1) * 3 * math.Exp(rng.NormFloat64())
		}
		f := expCosSum(p, y)
		b, v := MinimizeCircle(f, CircleOptions{})
		wb, wv := denseMin(f)
		if v > wv+1e-12*math.Max(1, math.Abs(wv)) {
			t.Errorf("trial %d: MinimizeCircle f(%v) = %.15g, dense f(%v) = %.15g", trial, b, v, wb, wv)
		}
		if b < -math.Pi || b >= math.Pi {
			t.Errorf("trial %d: b = %v outside [−π, π)", trial, b)
		}
		if vb, _ := f(b); vb != v {
			t.Errorf("trial %d: returned f %v != f(b) %v", trial, v, vb)
		}
		if _, g := f(b); math.Abs(g) > 1e-7*math.Max(1, math.Abs(v)) {
			t.Errorf("trial %d: f'(b) = %g at the minimum", trial, g)
		}
	}
}

func TestMinimizeCircleLocalMinima(t *testing.T) {
	// f(b) = cos(3b) + 0.1 cos(b − 1): three local minima near b = ±π/3, π,
	// the global one is the one nearest b = 1 + ... ; compare with dense search.
	f := func(b float64) (float64, float64) {
		return math.Cos(3*b) + 0.1*math.Cos(b-1), -3*math.Sin(3*b) - 0.1*math.Sin(b-1)
	}
	b, v := MinimizeCircle(f, CircleOptions{})
	wb, wv := denseMin(f)
	if angleDist(b, wb) > 1e-8 || v > wv+1e-14 {
		t.Errorf("got f(%v) = %v, want f(%v) = %v", b, v, wb, wv)
	}
	// Deep narrow well between grid points, plus a broad shallow one.
	g := func(b float64) (float64, float64) {
		w := 0.02
		d := math.Sin((b - 0.73) / 2)
		e := math.Exp(-d * d / (w * w))
		de := -2 * d / (w * w) * math.Cos((b-0.73)/2) / 2 * e
		return -0.5*math.Cos(b+2) - 2*e, 0.5*math.Sin(b+2) - 2*de
	}
	b, v = MinimizeCircle(g, CircleOptions{GridPoints: 256})
	wb, wv = denseMin(g)
	if angleDist(b, wb) > 1e-8 || v > wv+1e-14 || angleDist(b, 0.73) > 1e-2 {
		t.Errorf("narrow well: got f(%v) = %v, want f(%v) = %v", b, v, wb, wv)
	}
}

func TestMinimizeCircleWrapAround(t *testing.T) {
	for _, c := range []float64{math.Pi, -math.Pi, math.Pi - 1e-3, -math.Pi + 1e-3, math.Pi - 0.04, -math.Pi + 0.03} {
		f := func(b float64) (float64, float64) { return -math.Cos(b - c), math.Sin(b - c) }
		b, v := MinimizeCircle(f, CircleOptions{})
		if angleDist(b, c) > 1e-9 || v > -1+1e-15 {
			t.Errorf("minimum at %v: got b = %v, f = %v", c, b, v)
		}
		if b < -math.Pi || b >= math.Pi {
			t.Errorf("b = %v outside [−π, π)", b)
		}
	}
}

func TestMinimizeCircleConstant(t *testing.T) {
	calls := 0
	f := func(b float64) (float64, float64) { calls++; return 3, 0 }
	b, v := MinimizeCircle(f, CircleOptions{})
	if v != 3 || b != -math.Pi {
		t.Errorf("constant: b = %v, f = %v", b, v)
	}
	if calls != DefaultCircleGridPoints {
		t.Errorf("constant: %d calls, want %d", calls, DefaultCircleGridPoints)
	}
	// NaN everywhere must not panic.
	nan := func(b float64) (float64, float64) { return math.NaN(), math.NaN() }
	MinimizeCircle(nan, CircleOptions{GridPoints: 1})
}

func TestMinimizeCircleNoAllocs(t *testing.T) {
	f := expCosSum([]float64{0.3, 2, -1}, []float64{1, -2, 0.5})
	allocs := testing.AllocsPerRun(20, func() { MinimizeCircle(f, CircleOptions{}) })
	if allocs != 0 {
		t.Errorf("MinimizeCircle allocates %v times", allocs)
	}
}

// TestCircleBrackets checks the bracket choice on a hand-made grid: three
// local minima (one across the wrap-around), ranked by their lower endpoint
// value, truncated to len(dst), and none for an empty dst.
func TestCircleBrackets(t *testing.T) {
	//          0     1    2    3     4    5    6    7
	vals := []float64{0.5, 0.9, 0.2, 0.4, 0.8, 0.1, 0.3, 0.6}
	ders := []float64{1, -1, -1, 1, -1, -1, 1, -1}
	// Brackets i with ders[i] < 0 ≤ ders[i+1]: 2 (key 0.2), 5 (key 0.1), 7
	// (wraps to 0, key 0.5).
	var dst [4]int
	if nb := CircleBrackets(vals, ders, dst[:]); nb != 3 || dst[0] != 5 || dst[1] != 2 || dst[2] != 7 {
		t.Fatalf("got %d %v, want 3 [5 2 7]", nb, dst[:3])
	}
	if nb := CircleBrackets(vals, ders, dst[:2]); nb != 2 || dst[0] != 5 || dst[1] != 2 {
		t.Fatalf("len 2: got %d %v, want 2 [5 2]", nb, dst[:2])
	}
	if nb := CircleBrackets(vals, ders, nil); nb != 0 {
		t.Fatalf("empty dst: got %d", nb)
	}
}
