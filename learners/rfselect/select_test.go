package rfselect

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

func toy(n, d int, seed uint64) (featmap.Matrix, []float64) {
	r := rand.New(rand.NewPCG(seed, 5))
	X := make([]float64, n*d)
	y := make([]float64, n)
	for i := range y {
		var s float64
		for k := 0; k < d; k++ {
			X[i*d+k] = r.NormFloat64()
			s += X[i*d+k] * X[i*d+k]
		}
		y[i] = -1
		if s > float64(d) { // Sinha and Duchi's example: a sphere
			y[i] = 1
		}
	}
	return featmap.Dense(n, d, X), y
}

// bruteScores is (1/n) Σ y_i cos(ω_j·x_i + b_j) with math.Cos.
func bruteScores(rff *featmap.RFF, X featmap.Matrix, y []float64) []float64 {
	w, b := rff.Weights()
	d, D := rff.Inputs(), rff.Outputs()
	s := make([]float64, D)
	for j := 0; j < D; j++ {
		for i := 0; i < X.Rows; i++ {
			a := b[j]
			for k := 0; k < d; k++ {
				a += w[k*D+j] * X.Row(i)[k]
			}
			s[j] += y[i] * math.Cos(a) / float64(X.Rows)
		}
	}
	return s
}

// EERF keeps the M candidates of largest |score|, best first.
func TestEERFKeepsTopScores(t *testing.T) {
	X, y := toy(300, 4, 1)
	const M0, M = 200, 15
	all, err := featmap.NewRFF(featmap.RFFConfig{Inputs: 4, Features: M0, Gamma: 0.25, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	score := bruteScores(all, X, y)
	_, fast, err := candidateScores(X, y, 1, M0, M, 0.25, 7)
	if err != nil {
		t.Fatal(err)
	}
	for j := range score {
		if math.Abs(score[j]-fast[j]) > 1e-12 {
			t.Fatalf("score %d: %v, brute force %v", j, fast[j], score[j])
		}
	}
	sel, err := EERF(X, y, M0, M, 0.25, 7)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Outputs() != M || sel.Inputs() != 4 {
		t.Fatalf("map %d → %d", sel.Inputs(), sel.Outputs())
	}
	got := bruteScores(sel, X, y)
	abs := make([]float64, M0)
	for j, v := range score {
		abs[j] = math.Abs(v)
	}
	slices.Sort(abs)
	for t2, v := range got {
		if math.Abs(math.Abs(v)-abs[M0-1-t2]) > 1e-12 {
			t.Fatalf("selected %d has |score| %v, the %d-th largest is %v", t2, math.Abs(v), t2+1, abs[M0-1-t2])
		}
	}
	if sel.Scale() != math.Sqrt(2.0/M) {
		t.Errorf("scale %v", sel.Scale())
	}
}

// The χ² weights are feasible, increase with (Φᵀy)², and beat the
// uniform weights; a radius large enough puts all the mass on the best.
func TestChiSquareWeights(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	v := make([]float64, 50)
	for j := range v {
		v[j] = -r.Float64() * 10
	}
	for _, rho := range []float64{1e-4, 0.005, 0.1, 10} {
		q, err := chiSquareWeights(v, rho)
		if err != nil {
			t.Fatal(err)
		}
		var sum, dist, obj, uni float64
		for j, p := range q {
			if p < 0 {
				t.Fatalf("ρ %v: q[%d] = %v", rho, j, p)
			}
			sum += p
			dist += (p - 0.02) * (p - 0.02)
			obj += p * v[j]
			uni += 0.02 * v[j]
		}
		if math.Abs(sum-1) > 1e-12 || dist > rho*(1+1e-9) || !(obj < uni) {
			t.Errorf("ρ %v: Σq = %v, ‖q−u‖² = %v, objective %v vs uniform %v", rho, sum, dist, obj, uni)
		}
		for a := range q {
			for b := range q {
				if v[a] < v[b] && q[a] < q[b] {
					t.Fatalf("ρ %v: q not monotone in −v", rho)
				}
			}
		}
		if rho == 10 {
			best := slices.Index(v, slices.Min(v))
			if q[best] != 1 {
				t.Errorf("ρ 10: q[best] = %v, want 1", q[best])
			}
		}
	}
}

// LKRF samples from q: with a tiny ball the sample is close to uniform
// over candidates, with a large one it concentrates on the top features.
func TestLKRF(t *testing.T) {
	X, y := toy(300, 4, 3)
	const M0, M = 100, 40
	big, err := LKRF(X, y, M0, M, 0.25, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	top, err := EERF(X, y, M0, 1, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := top.Weights()
	wb, _ := big.Weights()
	for t2 := 0; t2 < M; t2++ {
		if wb[t2] != wt[0] { // row 0 of W (d×M): first coordinate of each frequency
			t.Fatalf("ρ = 10: feature %d is not the best candidate", t2)
		}
	}
	small, err := LKRF(X, y, M0, M, 0.25, 1e-9, 1)
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := small.Weights()
	distinct := map[float64]bool{}
	for t2 := 0; t2 < M; t2++ {
		distinct[ws[t2]] = true
	}
	if len(distinct) < M/2 {
		t.Errorf("ρ → 0: only %d distinct features of %d (near-uniform sampling expected)", len(distinct), M)
	}
	if _, err := LKRF(X, y, M0, M, 0.25, -1, 1); err == nil {
		t.Error("negative ρ accepted")
	}
	if _, err := EERF(X, y, 10, 20, 0.25, 1); err == nil {
		t.Error("candidates < M accepted")
	}
	if _, err := EERF(X, y, 10, 5, 0, 1); err == nil {
		t.Error("γ = 0 accepted")
	}
	if _, err := EERF(X, y[:5], 10, 5, 1, 1); err == nil {
		t.Error("ragged y accepted")
	}
}

// Both learners learn the sphere problem far better than chance, round
// trip through learners.Load, and are registered under their names.
func TestLearners(t *testing.T) {
	X, y := toy(1000, 5, 4)
	Xt, yt := toy(2000, 5, 5)
	for _, sel := range []Selection{EERFSelection, LKRFSelection} {
		m, err := Fit(context.Background(), X, y, Config{Selection: sel, Features: 30, Gamma: 0.1, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		ok := 0
		for i, v := range yt {
			if m.Predict(Xt.Row(i)) == v {
				ok++
			}
		}
		acc := float64(ok) / float64(len(yt))
		t.Logf("%s: test accuracy %.4f", sel, acc)
		// The majority class is ≈ 0.56; a linear model is near it.
		// Measured: eerf 0.904, lkrf 0.903.
		if acc < 0.8 {
			t.Errorf("%s: test accuracy %.3f < 0.8", sel, acc)
		}
		m2, err := learners.Load(learnertest.Bytes(t, m))
		if err != nil {
			t.Fatal(err)
		}
		if m2.(*Model).Config().Selection != sel || m2.Predict(X.Row(0)) != m.Predict(X.Row(0)) {
			t.Errorf("%s: reload", sel)
		}
		meth, err := learners.Lookup(string(sel))
		if err != nil {
			t.Fatal(err)
		}
		if c := meth.NewConfig().(*Config); c.Selection != sel {
			t.Errorf("%s: registry config %+v", sel, c)
		}
		other := EERFSelection
		if sel == EERFSelection {
			other = LKRFSelection
		}
		if _, err := meth.Fit(context.Background(), X, y, &Config{Selection: other}, nil); err == nil {
			t.Errorf("%s method accepted Selection %s", sel, other)
		}
	}
}
