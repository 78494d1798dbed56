package mfga

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/internal/solvers"
	"github.com/rfkit/rfkit/learners"
)

func randRows(n, d int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 9))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	return x
}

// taylorRef is the dictionary at x written from the formula of the package
// documentation, independently of dictRow: φ_α(x) = e^{−‖x‖²/2σ²}·x^α /
// (σ^{|α|}·√(α!)) for |α| ≤ degree in graded order, then the d linear
// features x_k. It uses math.Exp and math.Pow, so it agrees with dictRow
// up to rounding.
func taylorRef(x []float64, sigma float64, degree int) []float64 {
	var n2 float64
	for _, v := range x {
		n2 += v * v
	}
	g := math.Exp(-n2 / (2 * sigma * sigma))
	out := []float64{g}
	for _, v := range x {
		out = append(out, g*v/sigma)
	}
	if degree == 2 {
		for k := range x {
			for l := k; l < len(x); l++ {
				fact := 1.0 // α!
				if l == k {
					fact = 2
				}
				out = append(out, g*x[k]*x[l]/(math.Pow(sigma, 2)*math.Sqrt(fact)))
			}
		}
	}
	return append(out, x...)
}

// TaylorRef is taylorRef for the external tests.
var TaylorRef = taylorRef

// The dictionary is the Taylor map of the documentation with linear
// features, entry by entry, and decode(j).value agrees with dictRow bit for
// bit.
func TestDictionaryMatchesTaylor(t *testing.T) {
	const d = 5
	x := randRows(1, d, 1)
	for _, deg := range []int{1, 2} {
		want := taylorRef(x, 1.7, deg)
		m0 := candidates(d, deg)
		if m0 != len(want) {
			t.Fatalf("degree %d: M₀ = %d, the formula has %d features", deg, m0, len(want))
		}
		inv := 1 / 1.7
		e := []float64{expArg(x, inv)}
		got := make([]float64, m0)
		expW := expWeights(x, 1, d, inv)
		e[0] = expW[0]
		dictRow(got, x, e[0], inv, deg)
		for j := range got {
			if math.Abs(got[j]-want[j]) > 1e-14*math.Max(1, math.Abs(want[j])) {
				t.Errorf("degree %d entry %d: %v, formula %v", deg, j, got[j], want[j])
			}
			f, ok := decode(j, d, deg)
			if !ok || f.value(x, e[0], inv) != got[j] {
				t.Errorf("degree %d entry %d: decode %+v %v gives %v, dictRow %v", deg, j, f, ok, f.value(x, e[0], inv), got[j])
			}
		}
		if _, ok := decode(m0, d, deg); ok {
			t.Errorf("degree %d: index M₀ decodes", deg)
		}
		if _, ok := decode(-1, d, deg); ok {
			t.Errorf("degree %d: index −1 decodes", deg)
		}
	}
}

// The Taylor part of the dictionary approximates the Gaussian kernel: the
// degree-p truncation of exp(x·x'/σ²) leaves a remainder below
// (x·x'/σ²)^{p+1}/(p+1)!·e^{|x·x'|/σ²}; the test checks the inner product
// of the dictionary rows without their d linear features against the exact
// kernel within that bound (plus rounding), and that degree 2 is closer
// than degree 1.
func TestTaylorApproximatesKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 7))
	const d, sigma = 4, 2.0
	inv := 1 / sigma
	for trial := 0; trial < 200; trial++ {
		x, y := make([]float64, d), make([]float64, d)
		for k := range x {
			x[k], y[k] = 0.5*r.NormFloat64(), 0.5*r.NormFloat64()
		}
		var sq, dot float64
		for k := range x {
			sq += (x[k] - y[k]) * (x[k] - y[k])
			dot += x[k] * y[k]
		}
		exact := math.Exp(-sq / (2 * sigma * sigma))
		var errs [3]float64
		for p := 1; p <= 2; p++ {
			m0 := candidates(d, p)
			fx, fy := make([]float64, m0), make([]float64, m0)
			dictRow(fx, x, expWeights(x, 1, d, inv)[0], inv, p)
			dictRow(fy, y, expWeights(y, 1, d, inv)[0], inv, p)
			var ip float64
			for k := range fx[:m0-d] {
				ip += fx[k] * fy[k]
			}
			a := math.Abs(dot) / (sigma * sigma)
			fact := 1.0
			for i := 2; i <= p+1; i++ {
				fact *= float64(i)
			}
			gx := math.Exp(-(sq + 2*dot) / (2 * sigma * sigma)) // e^{−(‖x‖²+‖y‖²)/2σ²}
			bound := gx*math.Pow(a, float64(p+1))/fact*math.Exp(a) + 1e-15
			errs[p] = math.Abs(ip - exact)
			if errs[p] > bound {
				t.Fatalf("p=%d: ⟨φ(x),φ(y)⟩ = %v, kernel %v, error %g > bound %g", p, ip, exact, errs[p], bound)
			}
		}
		if errs[2] > errs[1]+1e-15 {
			t.Fatalf("degree 2 (%g) worse than degree 1 (%g)", errs[2], errs[1])
		}
	}
}

// The dictionary has 1 + d (+ d(d+1)/2 at degree 2) Taylor features and
// the d linear ones at its end.
func TestDictionaryShapes(t *testing.T) {
	for _, c := range []struct{ d, p, want int }{{3, 1, 7}, {3, 2, 13}, {5, 2, 26}} {
		if m0 := candidates(c.d, c.p); m0 != c.want {
			t.Errorf("d=%d p=%d: M₀ = %d, want %d", c.d, c.p, m0, c.want)
		}
		x := make([]float64, c.d)
		x[1] = 3
		z := make([]float64, c.want)
		dictRow(z, x, 1, 1, c.p)
		if z[c.want-c.d+1] != 3 {
			t.Errorf("d=%d p=%d: linear features not at the end: %v", c.d, c.p, z)
		}
	}
}

// With n ≤ 256 every row is a query: the rule is the exact mean distance
// to the 50th nearest neighbour.
func TestSigmaRule(t *testing.T) {
	const n, d = 120, 3
	x := randRows(n, d, 2)
	var want float64
	for i := 0; i < n; i++ {
		var ds []float64
		for j := 0; j < n; j++ {
			if j != i {
				var s float64
				for k := 0; k < d; k++ {
					u := x[i*d+k] - x[j*d+k]
					s += u * u
				}
				ds = append(ds, math.Sqrt(s))
			}
		}
		slices.Sort(ds)
		want += ds[49] / n
	}
	if got := sigmaRule(x, n, d, 1, 0); math.Abs(got-want) > 1e-12*want {
		t.Errorf("σ = %v, want %v", got, want)
	}
	if got := sigmaRule(x[:d], 1, d, 1, 0); got != math.Sqrt(2*d) {
		t.Errorf("one row: σ = %v", got)
	}
	if got := sigmaRule(make([]float64, 60*d), 60, d, 1, 0); got != math.Sqrt(2*d) {
		t.Errorf("identical rows: σ = %v", got)
	}
}

// The incrementally factorised squared-loss fit equals a ridge regression
// from scratch on the same normalised active columns.
func TestIncrementalCholeskyMatchesRidge(t *testing.T) {
	const n, d = 300, 4
	x := randRows(n, d, 3)
	y := make([]float64, n)
	for i := range y {
		y[i] = math.Sin(x[i*d]) + x[i*d+1]*x[i*d+2]
	}
	c := Config{Task: learners.Regression, Sigma: 2, Features: 9, PerStep: 2, Lambda: 1e-3}.resolve()
	g := newGreedy(x, y, ones(n), n, d, 9, candidates(d, 2), c)
	for len(g.active) < 9 {
		if k, err := g.step(min(2, 9-len(g.active))); err != nil || k == 0 {
			t.Fatal(k, err)
		}
		k := len(g.active)
		z := make([]float64, n*k)
		for i := 0; i < n; i++ {
			copy(z[i*k:(i+1)*k], g.z[i*g.M:i*g.M+k])
		}
		w, b, err := solvers.Ridge(z, n, k, y, c.Lambda, solvers.RidgeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for j := range w {
			if math.Abs(w[j]-g.w[j]) > 1e-8*(1+math.Abs(w[j])) {
				t.Fatalf("%d features: w[%d] = %v, ridge %v", k, j, g.w[j], w[j])
			}
		}
		if math.Abs(b-g.bias) > 1e-8 {
			t.Fatalf("bias %v, ridge %v", g.bias, b)
		}
	}
}

// The logistic refit reaches the optimum on the active set: the gradient
// of the regularised risk w.r.t. the weights and the intercept vanishes.
func TestLogisticRefitOptimal(t *testing.T) {
	const n, d = 400, 3
	x := randRows(n, d, 4)
	y := make([]float64, n)
	for i := range y {
		y[i] = -1
		if x[i*d]*x[i*d]+x[i*d+1] > 1 {
			y[i] = 1
		}
	}
	c := Config{Sigma: 1.5, Features: 6, PerStep: 3, Lambda: 1e-3}.resolve()
	g := newGreedy(x, y, ones(n), n, d, 6, candidates(d, 1), c)
	for s := 0; s < 2; s++ {
		if _, err := g.step(3); err != nil {
			t.Fatal(err)
		}
	}
	k := len(g.active)
	var gc float64
	gw := make([]float64, k)
	for i := 0; i < n; i++ {
		gc += g.grad[i] / n
		for j := 0; j < k; j++ {
			gw[j] += g.grad[i] * g.z[i*g.M+j] / n
		}
	}
	for j := range gw {
		gw[j] += c.Lambda * g.w[j]
		if math.Abs(gw[j]) > 1e-6 {
			t.Errorf("∂R/∂w[%d] = %v", j, gw[j])
		}
	}
	if math.Abs(gc) > 1e-6 {
		t.Errorf("∂R/∂c = %v", gc)
	}
}

// TestKthSmallest: the heap with early abandoning returns the k-th value of
// a full sort, bit for bit, with ties (integer inputs) and d above and
// below the abandoning block of 16.
func TestKthSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, d := range []int{1, 3, 17, 40} {
		n := 300
		xs := make([]float64, n*d)
		for j := range xs {
			xs[j] = float64(r.IntN(4)) + 0.1*r.NormFloat64()*float64(j%2)
		}
		for _, k := range []int{1, 2, 50, n - 1} {
			for _, i := range []int{0, 7, n - 1} {
				var dist []float64
				for j := 0; j < n; j++ {
					if j == i {
						continue
					}
					var s float64
					for c := 0; c < d; c++ {
						u := xs[j*d+c] - xs[i*d+c]
						s += float64(u * u)
					}
					dist = append(dist, s)
				}
				slices.Sort(dist)
				if got := kthSmallest(xs, n, d, i, k); got != dist[k-1] {
					t.Fatalf("d=%d k=%d i=%d: %v, want %v", d, k, i, got, dist[k-1])
				}
			}
		}
	}
}
