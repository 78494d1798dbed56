package srff

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
)

// gradProblem is a small problem with a fitted a, for the gradient tests.
func gradProblem(t *testing.T, n, d, D int) (*evaluator, []float64, []float64) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for i := range y {
		y[i] = math.Sin(x[i*d]) + 0.1*r.NormFloat64()
	}
	eps, b, err := drawNoise(d, D, 3)
	if err != nil {
		t.Fatal(err)
	}
	pr := newProblem(featmap.Dense(n, d, x), y, nil)
	ev := newEvaluator(pr.X, pr.yc, nil, append([]float64(nil), eps...), append([]float64(nil), b...), D)
	gamma := make([]float64, d)
	for k := range gamma {
		gamma[k] = 0.1 + 0.8*r.Float64()
	}
	gamma[1] = 0 // an input the simplex has switched off
	a := make([]float64, D)
	if _, err := ev.aStep(a, gamma, 1e-3); err != nil {
		t.Fatal(err)
	}
	ev.setA(a)
	return ev, gamma, a
}

// TestGammaGradient checks the analytic γ gradient of the γ-step objective
// against central finite differences and against a row-by-row sum
// (rowGradient), on a problem with a short last block (n = 150) and D not
// a multiple of 8.
func TestGammaGradient(t *testing.T) {
	const n, d, D = 150, 5, 42
	ev, gamma, a := gradProblem(t, n, d, D)
	grad := make([]float64, d)
	f0 := ev.value(gamma, grad)
	if v := ev.value(gamma, nil); v != f0 {
		t.Errorf("value without the gradient %v, with it %v", v, f0)
	}
	scratch := make([]float64, d)
	for k := range gamma {
		const h = 1e-6
		g := append([]float64(nil), gamma...)
		g[k] += h
		fp := ev.value(g, scratch)
		g[k] -= 2 * h
		fm := ev.value(g, scratch)
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-grad[k]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("∂J/∂γ_%d: analytic %.9g, finite differences %.9g", k, grad[k], fd)
		}
	}
	// The same gradient row by row: u = −r/n.
	eps, b, err := drawNoise(d, D, 3) // gradProblem's draws
	if err != nil {
		t.Fatal(err)
	}
	m, err := scaledMap(eps, b, gamma, d, D)
	if err != nil {
		t.Fatal(err)
	}
	z := make([]float64, n*D)
	if err := m.Transform(featmap.Dense(n, D, z), ev.X); err != nil {
		t.Fatal(err)
	}
	u := make([]float64, n)
	for i := range u {
		u[i] = -(ev.yc[i] - xmath.Dot(a, z[i*D:(i+1)*D])) / n
	}
	ref := rowGradient(ev.X, ev.eps, ev.Dp, ev.b[:D], gamma, u, a)
	for k := range ref {
		if math.Abs(ref[k]-grad[k]) > 1e-12*math.Max(1e-3, math.Abs(ref[k])) {
			t.Errorf("∂J/∂γ_%d: %.15g, row by row %.15g", k, grad[k], ref[k])
		}
	}
	// The features of the a-step are featmap's, bit for bit.
	ev.features(gamma)
	for i, v := range z {
		if got := ev.z[i/D*(D+1)+i%D]; got != v {
			t.Fatalf("feature %d: %v, featmap %v", i, got, v)
		}
	}
}

// TestRidgeSolves: the a of the a-step solves (ZᵀWZ + WλI)a = ZᵀW·yc to
// rounding, with and without row weights, on a set with two stripes, a
// short last chunk and D spanning three row groups of the Gram matrix (the
// last one partial), and it has the same bits on every path of package
// asm.
func TestRidgeSolves(t *testing.T) {
	const n, d, D, lambda = 700, 4, 50, 1e-3
	r := rand.New(rand.NewPCG(7, 8))
	x := make([]float64, n*d)
	y := make([]float64, n)
	w := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for i := range y {
		y[i] = math.Sin(x[i*d]) + 0.1*r.NormFloat64()
		w[i] = float64(r.IntN(3))
	}
	eps, b, err := drawNoise(d, D, 3)
	if err != nil {
		t.Fatal(err)
	}
	gamma := []float64{0.3, 0.5, 0, 0.2}
	for _, wt := range [][]float64{nil, w} {
		pr := newProblem(featmap.Dense(n, d, x), y, wt)
		solve := func() (*evaluator, []float64) {
			ev := newEvaluator(pr.X, pr.yc, wt, slices.Clone(eps), slices.Clone(b), D)
			a := make([]float64, D)
			if _, err := ev.aStep(a, gamma, lambda); err != nil {
				t.Fatal(err)
			}
			return ev, a
		}
		ev, a := solve()
		for k := 0; k < D; k++ {
			var lhs, rhs float64
			for i := 0; i < n; i++ {
				wi := 1.0
				if wt != nil {
					wi = wt[i]
				}
				zi := ev.z[i*(D+1) : i*(D+1)+D]
				lhs += wi * zi[k] * xmath.Dot(a, zi)
				rhs += wi * zi[k] * pr.yc[i]
			}
			lhs += lambda * ev.wsum * a[k]
			if math.Abs(lhs-rhs) > 1e-9*(1+math.Abs(rhs)) {
				t.Fatalf("weights %v: row %d of the normal equations: %v, want %v", wt != nil, k, lhs, rhs)
			}
		}
		for _, path := range asm.Paths() {
			restore, err := asm.SetPath(path)
			if err != nil {
				t.Fatal(err)
			}
			_, got := solve()
			restore()
			for k := range a {
				if math.Float64bits(got[k]) != math.Float64bits(a[k]) {
					t.Fatalf("weights %v, path %s: a[%d] = %v, want %v", wt != nil, path, k, got[k], a[k])
				}
			}
		}
	}
}

// TestValueParallel checks that the objective and gradient have the same
// bits on one goroutine and on several.
func TestValueParallel(t *testing.T) {
	const n, d, D = 700, 30, 50 // n·d·D above parallelWork
	ev, gamma, _ := gradProblem(t, n, d, D)
	sameOnProcs(t, func() []float64 {
		grad := make([]float64, d+1)
		grad[d] = ev.value(gamma, grad[:d])
		return grad
	})
}

// TestRidgeParallel checks that the a-step (features, Gram matrix in
// stripes, Cholesky) has the same bits on one goroutine and on several, on
// a set with two stripes and a short last block.
func TestRidgeParallel(t *testing.T) {
	const n, d, D = 700, 5, 40 // n·D² above parallelWork, 11 blocks
	ev, gamma, _ := gradProblem(t, n, d, D)
	sameOnProcs(t, func() []float64 {
		a := make([]float64, D+1)
		j, err := ev.aStep(a[:D], gamma, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		a[D] = j
		return a
	})
}

// sameOnProcs checks that f returns the same bits on one goroutine and on
// three.
func sameOnProcs(t *testing.T, f func() []float64) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref []float64
	for _, procs := range []int{1, 3} {
		runtime.GOMAXPROCS(procs)
		got := f()
		if ref == nil {
			ref = got
			continue
		}
		for k := range got {
			if got[k] != ref[k] {
				t.Fatalf("GOMAXPROCS=%d: [%d] = %v, want %v", procs, k, got[k], ref[k])
			}
		}
	}
}

// TestGammaStep checks that the γ-step stays on the simplex, decreases its
// objective, and stops by the four-decreases rule before the iteration cap
// when the tolerance is loose.
func TestGammaStep(t *testing.T) {
	const n, d, D, s = 150, 5, 42, 2.5
	ev, _, _ := gradProblem(t, n, d, D)
	gamma := []float64{s / d, s / d, s / d, s / d, s / d}
	f0 := ev.value(gamma, nil)
	it, err := gammaStep(context.Background(), ev, gamma, s, 100, 1e-5, nil)
	if err != nil {
		t.Fatal(err)
	}
	f1 := ev.value(gamma, nil)
	checkSimplex(t, gamma, s)
	if !(f1 < 0.9*f0) {
		t.Errorf("objective %v → %v after %d iterations, want a decrease of 10 %%", f0, f1, it)
	}
	g2 := []float64{s / d, s / d, s / d, s / d, s / d}
	it2, err := gammaStep(context.Background(), ev, g2, s, 100, 1e-1, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d iterations at tol 1e-5 (objective %.6g → %.6g), %d at 1e-1", it, f0, f1, it2)
	if !(it2 >= 4 && it2 < it) {
		t.Errorf("tolerance 1e-1: %d iterations, want at least 4 and fewer than %d at 1e-5", it2, it)
	}
}

// TestGammaStepContext: a cancelled ctx stops the γ-step after its first
// iteration with ctx's error, leaving γ on the simplex.
func TestGammaStepContext(t *testing.T) {
	const n, d, D, s = 150, 5, 42, 2.5
	ev, _, _ := gradProblem(t, n, d, D)
	gamma := []float64{s / d, s / d, s / d, s / d, s / d}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	it, err := gammaStep(ctx, ev, gamma, s, 100, 1e-12, nil)
	if !errors.Is(err, context.Canceled) || it != 1 {
		t.Fatalf("gammaStep with a cancelled ctx: %d iterations, err %v; want 1, context.Canceled", it, err)
	}
	var sum float64
	for _, g := range gamma {
		sum += g
	}
	if math.Abs(sum-s) > 1e-12 {
		t.Errorf("Σγ = %v, want %v", sum, s)
	}
}

// rowGradient is the plain reference of the γ gradient (once
// a featmap method): grad_k = Σ_i u_i Σ_j a_j·(−s·sin θ_ij)·ε_kj·x_ik
// with s = √(2/D), θ_ij = Σ_k (γ_k ε_kj) x_ik + b_j, ε (d rows of stride
// Dp) and b the draws of drawNoise.
func rowGradient(X featmap.Matrix, eps []float64, Dp int, b, gamma, u, a []float64) []float64 {
	d, D := X.Cols, len(b)
	s := math.Sqrt(2 / float64(D))
	grad := make([]float64, d)
	for i := 0; i < X.Rows; i++ {
		x := X.Row(i)
		for j := 0; j < D; j++ {
			theta := b[j]
			for k := 0; k < d; k++ {
				theta += float64(gamma[k]*eps[k*Dp+j]) * x[k]
			}
			t := -u[i] * a[j] * s * math.Sin(theta)
			for k := 0; k < d; k++ {
				grad[k] += t * eps[k*Dp+j] * x[k]
			}
		}
	}
	return grad
}

// TestCholesky: cholesky's U satisfies UᵀU = A to rounding and cholSolve
// solves A·x = b, for even and odd D (both ways DotStats splits the rows
// above), on every path of package asm with the same bits, and it fails on
// a matrix that is not positive definite.
func TestCholesky(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, D := range []int{1, 2, 3, 8, 13, 40, 41} {
		for _, shift := range []float64{1e-3, -50} { // positive definite, then not
			A := make([]float64, D*D)
			for i := 0; i < D; i++ {
				for j := 0; j <= i; j++ {
					var s float64
					for k := 0; k < D+3; k++ {
						s += math.Sin(float64(i*7+k)) * math.Sin(float64(j*7+k))
					}
					A[i*D+j], A[j*D+i] = s, s
				}
				A[i*D+i] += shift + r.Float64()
			}
			U := slices.Clone(A)
			ok := cholesky(U, D)
			if ok != (shift > 0) {
				t.Fatalf("D = %d, shift %g: ok %v", D, shift, ok)
			}
			if !ok {
				continue
			}
			for i := 0; i < D; i++ {
				for j := i; j < D; j++ {
					var s float64
					for m := 0; m <= i; m++ {
						s += U[m*D+i] * U[m*D+j]
					}
					if math.Abs(s-A[i*D+j]) > 1e-10*(1+math.Abs(A[i*D+i])) {
						t.Fatalf("D = %d: (UᵀU)[%d][%d] = %v, A %v", D, i, j, s, A[i*D+j])
					}
				}
			}
			b := make([]float64, D)
			for i := range b {
				b[i] = float64(i%5) - 2
			}
			x := slices.Clone(b)
			cholSolve(U, D, x)
			for i := 0; i < D; i++ {
				var s float64
				for j := 0; j < D; j++ {
					s += A[i*D+j] * x[j]
				}
				if math.Abs(s-b[i]) > 1e-8*(1+math.Abs(b[i])) {
					t.Fatalf("D = %d: (A·x)[%d] = %v, b %v", D, i, s, b[i])
				}
			}
			for _, path := range asm.Paths() {
				restore, err := asm.SetPath(path)
				if err != nil {
					t.Fatal(err)
				}
				V := slices.Clone(A)
				cholesky(V, D)
				restore()
				for i := 0; i < D; i++ {
					for j := i; j < D; j++ {
						if math.Float64bits(V[i*D+j]) != math.Float64bits(U[i*D+j]) {
							t.Fatalf("D = %d, path %s: U[%d][%d] = %v, want %v", D, path, i, j, V[i*D+j], U[i*D+j])
						}
					}
				}
			}
		}
	}
}

// TestAccelerated: the accelerated alternation (the default,
// GammaIterations = 1) stays on the simplex, returns the a-step's a and
// the exact F(γ) at its γ, and in a fixed number of steps reaches a lower
// F than the plain alternation (projected gradient on F) from the same
// start.
func TestAccelerated(t *testing.T) {
	const n, d, D, s, lambda, steps = 150, 5, 42, 2.5, 1e-4, 30
	ev, _, _ := gradProblem(t, n, d, D)
	c := Config{Features: D, Simplex: s, MaxIterations: steps, GammaIterations: 1, Tol: 1e-300}.resolve(d)
	p := &path{ctx: context.Background(), cfg: c}
	gamma0 := []float64{s / d, s / d, s / d, s / d, s / d}
	a, gamma, loss, err := p.accelerated(ev, lambda, gamma0)
	if err != nil {
		t.Fatal(err)
	}
	checkSimplex(t, gamma, s)
	ref := make([]float64, D)
	f, err := ev.aStep(ref, gamma, lambda)
	if err != nil {
		t.Fatal(err)
	}
	if f != loss || !slices.Equal(ref, a) {
		t.Errorf("returned F = %v and a differ from the a-step at the returned γ (F = %v)", loss, f)
	}
	_, _, plain, err := p.alternate(ev, lambda, gamma0)
	if err != nil {
		t.Fatal(err)
	}
	f0, err := ev.aStep(ref, gamma0, lambda)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("F: start %.6g, %d plain steps %.6g, %d accelerated %.6g", f0, steps, plain, steps, loss)
	if !(loss < plain && plain < f0) {
		t.Errorf("F after %d steps: accelerated %v, plain %v, start %v; want accelerated < plain < start", steps, loss, plain, f0)
	}
}

// checkSimplex fails t unless γ lies on the simplex {γ ≥ 0, Σγ = s}
// (to 1e-12).
func checkSimplex(t *testing.T, gamma []float64, s float64) {
	t.Helper()
	var sum float64
	for _, g := range gamma {
		if !(g >= 0) {
			t.Fatalf("γ = %v leaves the simplex", gamma)
		}
		sum += g
	}
	if math.Abs(sum-s) > 1e-12 {
		t.Errorf("Σγ = %v, want %v", sum, s)
	}
}

// TestFeaturesFrom checks the features of featuresFrom against a fresh
// affine pass: from kept phases, the same bits; extrapolated from the
// phases of two points, the fresh phases of the extrapolated γ (with a
// negative coordinate, as an extrapolated point can have) up to rounding.
func TestFeaturesFrom(t *testing.T) {
	ev, gamma, _ := gradProblem(t, 150, 5, 13)
	n, ldz := ev.n, ev.D+1
	x, xPrev := slices.Clone(gamma), slices.Clone(gamma)
	xPrev[0], xPrev[2] = 0.9*x[0], x[2]+2
	thX, thP := make([]float64, n*ldz), make([]float64, n*ldz)
	ev.features(x)
	ev.savePhases(thX)
	zX := slices.Clone(ev.z)
	ev.features(xPrev)
	ev.savePhases(thP)

	ev.featuresFrom(x, thX, nil, 0)
	if !ev.haveFeatures(x) || !slices.Equal(ev.z, zX) {
		t.Fatal("features from the kept phases differ from a fresh pass")
	}
	const beta = 0.7
	y := make([]float64, len(x))
	for k := range y {
		y[k] = x[k] + float64(beta*(x[k]-xPrev[k]))
	}
	if !(y[2] < 0) {
		t.Fatalf("y[2] = %g, want a negative coordinate", y[2])
	}
	ev.featuresFrom(y, thX, thP, beta)
	ext, zExt := slices.Clone(ev.th), slices.Clone(ev.z)
	ev.zGamma = nil
	ev.features(y)
	var worst float64
	for i, v := range ev.th {
		worst = math.Max(worst, math.Abs(v-ext[i])/(1+math.Abs(v)))
		if d := math.Abs(ev.z[i] - zExt[i]); d > 1e-13 {
			t.Fatalf("feature %d: extrapolated %g, fresh %g", i, zExt[i], ev.z[i])
		}
	}
	if worst > 1e-14 {
		t.Errorf("extrapolated phases differ from fresh ones by %g (relative)", worst)
	}
}

// TestUnion checks setGamma's sorted union.
func TestUnion(t *testing.T) {
	for _, c := range []struct{ a, b, want []int }{
		{nil, nil, nil},
		{[]int{1, 3}, nil, []int{1, 3}},
		{nil, []int{2}, []int{2}},
		{[]int{0, 2, 5}, []int{1, 2, 6, 7}, []int{0, 1, 2, 5, 6, 7}},
	} {
		if got := union(nil, c.a, c.b); !slices.Equal(got, c.want) {
			t.Errorf("union(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestDeadInputsSameBits: an evaluator that leaves out the inputs that
// are 0 on every row (liveInputs) gives the bits of one that runs over
// every input: the features, the a-step's a and J, the γ-step objective
// at a fresh trial point, and the gradient, whose entries of the inputs
// left out are +0. The rows span three blocks, the last one partial.
func TestDeadInputsSameBits(t *testing.T) {
	const n, d, D = 150, 40, 42
	r := rand.New(rand.NewPCG(11, 12))
	used := []int{2, 5, 11, 12, 30}
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for _, k := range used {
			x[i*d+k] = r.NormFloat64()
		}
		y[i] = math.Sin(x[i*d+2]) + 0.1*r.NormFloat64()
	}
	eps, b, err := drawNoise(d, D, 3)
	if err != nil {
		t.Fatal(err)
	}
	pr := newProblem(featmap.Dense(n, d, x), y, nil)
	every := make([]int, d)
	for k := range every {
		every[k] = k
	}
	skip := newEvaluator(pr.X, pr.yc, nil, slices.Clone(eps), slices.Clone(b), D)
	if !slices.Equal(skip.live, used) {
		t.Fatalf("live inputs %v, want %v", skip.live, used)
	}
	full := newEvaluatorLive(pr.X, pr.yc, nil, slices.Clone(eps), slices.Clone(b), D, every)
	gamma := make([]float64, d)
	for k := range gamma {
		gamma[k] = 0.1 + 0.8*r.Float64()
	}
	gamma[5] = 0
	trial := slices.Clone(gamma)
	for k := range trial {
		trial[k] *= 0.9 + 0.2*r.Float64()
	}
	type out struct {
		z, a, g  []float64
		j, v, vt float64
	}
	run := func(ev *evaluator) out {
		a := make([]float64, D)
		j, err := ev.aStep(a, gamma, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		o := out{z: slices.Clone(ev.z), a: a, j: j, g: make([]float64, d)}
		ev.setA(a)
		o.v = ev.value(gamma, o.g)
		o.vt = ev.value(trial, nil)
		return o
	}
	got, want := run(skip), run(full)
	same := func(what string, p, q []float64) {
		for i := range p {
			if math.Float64bits(p[i]) != math.Float64bits(q[i]) {
				t.Fatalf("%s[%d]: %v without the constant inputs, %v with them", what, i, p[i], q[i])
			}
		}
	}
	same("z", got.z, want.z)
	same("a", got.a, want.a)
	same("gradient", got.g, want.g)
	same("J, value, trial value", []float64{got.j, got.v, got.vt}, []float64{want.j, want.v, want.vt})
	for k, v := range got.g {
		if !slices.Contains(used, k) && (v != 0 || math.Signbit(v)) {
			t.Errorf("gradient of constant input %d: %v", k, v)
		}
	}
}

// TestMostlyConstantInputs: when most inputs are 0 on every row, the fit
// runs on the others (mostlyConstant): the constant inputs get γ = 0 and
// the simplex holds the used inputs only. (Before, the constant inputs
// kept most of the simplex, draining a step at a time, and a 1 KB file of
// 4096 inputs took minutes.) With a constant input fewer than half, the
// fit is the one over every input.
func TestMostlyConstantInputs(t *testing.T) {
	const n, d = 60, 40
	r := rand.New(rand.NewPCG(13, 14))
	used := []int{3, 17, 29}
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for _, k := range used {
			x[i*d+k] = r.NormFloat64()
		}
		y[i] = math.Sin(x[i*d+3]) + x[i*d+17] + 0.1*r.NormFloat64()
	}
	cfg := Config{Features: 20, Lambda: 1e-2, MaxIterations: 50, Seed: 1}
	m, err := Fit(context.Background(), featmap.Dense(n, d, x), y, cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := m.Body().gamma
	var sum float64
	for k, v := range g {
		if slices.Contains(used, k) {
			sum += v
		} else if v != 0 {
			t.Errorf("γ of constant input %d = %v, want 0", k, v)
		}
	}
	s := m.Config().Simplex
	if math.Abs(sum-s) > 1e-9*s {
		t.Errorf("Σγ of the used inputs %v, simplex %v", sum, s)
	}
	// The default simplex is (used inputs)/σ: σ does not see the
	// constant inputs (they add 0 to every distance).
	xs := make([]float64, n*len(used))
	for i := 0; i < n; i++ {
		for t, k := range used {
			xs[i*len(used)+t] = x[i*d+k]
		}
	}
	_, _, zs, err := learners.Standardize(featmap.Dense(n, len(used), xs))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	if want := float64(len(used)) / neighbourWidth(zs, len(used), rows, neighbours); s != want {
		t.Errorf("simplex %v, want (used inputs)/σ = %v", s, want)
	}
	// Three used inputs of five: not a majority of constant ones.
	if mostlyConstant(xs, n, len(used)) != nil || mostlyConstant(pickColumns(x, n, d, []int{0, 1, 3, 17, 29}), n, 5) != nil {
		t.Error("mostlyConstant: a minority of constant inputs leaves the fit alone")
	}
}
