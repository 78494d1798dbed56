package calib

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// binaryData returns n scores of a noisy logistic model p = σ(k·s) and
// their labels (±1).
func binaryData(n int, k float64, seed uint64) (s, y []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	s, y = make([]float64, n), make([]float64, n)
	for i := range s {
		s[i] = rng.NormFloat64() * 3
		y[i] = -1
		if rng.Float64() < 1/(1+math.Exp(-k*s[i])) {
			y[i] = 1
		}
	}
	return s, y
}

// bruteLoss is the binary log loss with targets 1/0 in float64 math.
func bruteLoss(s, y []float64, a, b float64) float64 {
	var l float64
	for i := range s {
		f := a*s[i] + b
		if y[i] > 0 {
			l += math.Log1p(math.Exp(-f))
		} else {
			l += math.Log1p(math.Exp(f))
		}
	}
	return l
}

// golden minimises the convex f on [lo, hi] by golden-section search.
func golden(f func(float64) float64, lo, hi float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	for range 200 {
		a, b := hi-r*(hi-lo), lo+r*(hi-lo)
		if f(a) < f(b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

func TestTemperatureMatchesBruteForce(t *testing.T) {
	s, y := binaryData(2000, 0.7, 1)
	r, err := Temperature(s, y, nil, Options{Start: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := golden(func(a float64) float64 { return bruteLoss(s, y, a, 0) }, 0, 10)
	if math.Abs(r.A-want) > 1e-4*want || !r.Converged || r.Evals > 10 {
		t.Errorf("Temperature: a = %v in %d evals (converged %v), want %v in ≤ 10", r.A, r.Evals, r.Converged, want)
	}
}

func TestPlattMatchesBruteForce(t *testing.T) {
	s, y := binaryData(2000, 0.5, 2)
	for i := range s {
		s[i] += 1 // a shift the intercept must undo
	}
	r, err := Platt(s, y, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// coordinate-wise golden search, alternated to convergence
	a, b := 1.0, 0.0
	for range 40 {
		a = golden(func(a float64) float64 { return bruteLoss(s, y, a, b) }, 0, 10)
		b = golden(func(b float64) float64 { return bruteLoss(s, y, a, b) }, -10, 10)
	}
	if math.Abs(r.A-a) > 1e-3 || math.Abs(r.B-b) > 1e-3 || !r.Converged || r.Evals > 12 {
		t.Errorf("Platt: (%v, %v) in %d evals (converged %v), want (%v, %v)", r.A, r.B, r.Evals, r.Converged, a, b)
	}
	if math.Abs(r.B+0.5) > 0.15 {
		t.Errorf("Platt: b = %v, want about −0.5 (the shift times the slope)", r.B)
	}
}

func TestSoftmaxMatchesBruteForce(t *testing.T) {
	const n, K = 1500, 4
	rng := rand.New(rand.NewPCG(3, 3))
	S := make([]float64, n*K)
	class := make([]int, n)
	for i := range class {
		class[i] = rng.IntN(K)
		for k := 0; k < K; k++ {
			S[i*K+k] = rng.NormFloat64()
		}
		S[i*K+class[i]] += 1.5 // over-confident scores: the fit must shrink them
		for k := 0; k < K; k++ {
			S[i*K+k] *= 4
		}
	}
	loss := func(a float64) float64 {
		var l float64
		for i, c := range class {
			m := math.Inf(-1)
			for k := 0; k < K; k++ {
				m = math.Max(m, a*S[i*K+k])
			}
			var z float64
			for k := 0; k < K; k++ {
				z += math.Exp(a*S[i*K+k] - m)
			}
			l += math.Log(z) + m - a*S[i*K+c]
		}
		return l
	}
	r, err := Softmax(S, class, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := golden(loss, 0, 5)
	if math.Abs(r.A-want) > 1e-4*want || !r.Converged || r.Evals > 10 {
		t.Errorf("Softmax: a = %v in %d evals (converged %v), want %v", r.A, r.Evals, r.Converged, want)
	}
	if !(r.A < 1) {
		t.Errorf("Softmax: a = %v, want < 1 for over-confident scores", r.A)
	}
}

// TestLargeNStopsRelative is the case an absolute gradient rule cannot
// stop: at n = 2·10⁵ the gradient, a sum over n rows, is known only to
// about n·ε·|s|, far above 1e-10, so a rule |g| < 1e-10 ran to its
// iteration cap (100 Newton steps with line searches, thousands of
// evaluations). The relative rule stops in a handful.
func TestLargeNStopsRelative(t *testing.T) {
	s, y := binaryData(200_000, 1.3, 4)
	for _, fit := range []func([]float64, []float64, []float64, Options) (Result, error){Temperature, Platt} {
		r, err := fit(s, y, nil, Options{Start: 2, PlattTargets: true})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Converged || r.Evals > 8 {
			t.Errorf("n = 2e5: %d evals (converged %v), want ≤ 8 and converged", r.Evals, r.Converged)
		}
	}
}

// TestAdversarialEvalsCapped: on scores where the minimum is at infinity
// or the loss is flat, every fit stops within MaxEvals with a finite
// result.
func TestAdversarialEvalsCapped(t *testing.T) {
	sep, ysep := binaryData(500, 1, 5)
	for i := range sep {
		sep[i] = math.Abs(sep[i]) * ysep[i] // separable: the slope's optimum is +∞
	}
	ones := make([]float64, 300)
	for i := range ones {
		ones[i] = 1
	}
	s1, _ := binaryData(300, 1, 6)
	huge := make([]float64, len(sep))
	tiny := make([]float64, len(sep))
	for i, v := range sep {
		huge[i] = v * 1e300
		tiny[i] = v * 1e-300
	}
	noisy, ynoisy := binaryData(500, 1, 7)
	zeros := make([]float64, 50)
	cases := []struct {
		name string
		s, y []float64
	}{
		{"separable", sep, ysep},
		{"one class", s1, ones},
		{"huge scores", huge, ysep},
		{"tiny scores", tiny, ysep},
		{"all scores 0", zeros, ones[:50]},
		{"wrong way", neg(noisy), ynoisy},
	}
	for _, c := range cases {
		for _, platt := range []bool{false, true} {
			for name, fit := range map[string]func([]float64, []float64, []float64, Options) (Result, error){"temperature": Temperature, "platt": Platt} {
				r, err := fit(c.s, c.y, nil, Options{Start: 2, PlattTargets: platt})
				if err != nil {
					t.Fatalf("%s %s: %v", c.name, name, err)
				}
				if r.Evals < 1 || r.Evals > MaxEvals || math.IsNaN(r.A) || math.IsNaN(r.B) || math.IsNaN(r.Loss) {
					t.Errorf("%s %s (Platt targets %v): %+v, want ≤ %d evals and no NaN", c.name, name, platt, r, MaxEvals)
				}
			}
		}
	}
}

func neg(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = -v
	}
	return out
}

// TestScaleInvariant: scores times a power of two give the slope divided
// by it, to the bit; times 3, the same slope to rounding.
func TestScaleInvariant(t *testing.T) {
	s, y := binaryData(1000, 0.8, 8)
	r0, _ := Temperature(s, y, nil, Options{PlattTargets: true})
	s8, s3 := make([]float64, len(s)), make([]float64, len(s))
	for i, v := range s {
		s8[i], s3[i] = v*8, v*3
	}
	r8, _ := Temperature(s8, y, nil, Options{Start: 1.0 / 8, PlattTargets: true})
	if r8.A*8 != r0.A || r8.Evals != r0.Evals {
		t.Errorf("scores ×8: a = %v (%d evals), want %v (%d)", r8.A*8, r8.Evals, r0.A, r0.Evals)
	}
	r3, _ := Temperature(s3, y, nil, Options{Start: 1.0 / 3, PlattTargets: true})
	if math.Abs(r3.A*3-r0.A) > 1e-6*r0.A {
		t.Errorf("scores ×3: a = %v, want %v", r3.A*3, r0.A)
	}
}

// TestWeights: integer weights are repeated rows.
func TestWeights(t *testing.T) {
	s, y := binaryData(400, 0.8, 9)
	w := make([]float64, len(s))
	var rs, ry []float64
	for i := range s {
		w[i] = float64(1 + i%3)
		for range int(w[i]) {
			rs, ry = append(rs, s[i]), append(ry, y[i])
		}
	}
	rw, err := Platt(s, y, w, Options{PlattTargets: true})
	if err != nil {
		t.Fatal(err)
	}
	rr, _ := Platt(rs, ry, nil, Options{PlattTargets: true})
	if math.Abs(rw.A-rr.A) > 1e-9 || math.Abs(rw.B-rr.B) > 1e-9 {
		t.Errorf("weights: (%v, %v), repeated rows: (%v, %v)", rw.A, rw.B, rr.A, rr.B)
	}
}

func TestBadInput(t *testing.T) {
	s, y := []float64{1, -1, 2}, []float64{1, -1, 1}
	cases := []struct {
		name string
		err  func() error
		want string
	}{
		{"NaN score", func() error { _, e := Temperature([]float64{1, math.NaN(), 2}, y, nil, Options{}); return e }, "score 1"},
		{"Inf score", func() error { _, e := Platt([]float64{math.Inf(1), 1, 2}, y, nil, Options{}); return e }, "score 0"},
		{"label 0", func() error { _, e := Temperature(s, []float64{1, 0, 1}, nil, Options{}); return e }, "label 1"},
		{"short labels", func() error { _, e := Temperature(s, y[:2], nil, Options{}); return e }, "labels"},
		{"negative weight", func() error { _, e := Temperature(s, y, []float64{1, -1, 1}, Options{}); return e }, "weight 1"},
		{"NaN weight", func() error { _, e := Temperature(s, y, []float64{1, math.NaN(), 1}, Options{}); return e }, "weight 1"},
		{"zero weights", func() error { _, e := Temperature(s, y, []float64{0, 0, 0}, Options{}); return e }, "sum"},
		{"NaN start", func() error { _, e := Temperature(s, y, nil, Options{Start: math.NaN()}); return e }, "Start"},
		{"empty", func() error { _, e := Temperature(nil, nil, nil, Options{}); return e }, "no rows"},
		{"class out of range", func() error { _, e := Softmax([]float64{1, 2, 3, 4}, []int{0, 2}, nil, Options{}); return e }, "class 1"},
		{"K = 1", func() error { _, e := Softmax([]float64{1, 2}, []int{0, 0}, nil, Options{}); return e }, "K ≥ 2"},
		{"NaN softmax score", func() error { _, e := Softmax([]float64{1, math.NaN(), 3, 4}, []int{0, 1}, nil, Options{}); return e }, "score 1"},
	}
	for _, c := range cases {
		err := c.err()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one naming %q", c.name, err, c.want)
		}
	}
}

// TestContext: a fit under a cancelled Options.Ctx returns its error
// after its first evaluation (a pass over the rows), where the same fit
// under no context takes several; the result under a live context is the
// one without.
func TestContext(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 2000
	s, y := make([]float64, n), make([]float64, n)
	for i := range s {
		s[i] = 3 * r.NormFloat64()
		y[i] = -1
		if s[i]+2*r.NormFloat64() > 0 {
			y[i] = 1
		}
	}
	ref, err := Temperature(s, y, nil, Options{PlattTargets: true})
	if err != nil || ref.Evals < 3 {
		t.Fatalf("reference fit: %+v, %v (want several evaluations)", ref, err)
	}
	live, err := Temperature(s, y, nil, Options{PlattTargets: true, Ctx: context.Background()})
	if err != nil || live != ref {
		t.Errorf("under a live context: %+v, %v, want %+v", live, err, ref)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Temperature(s, y, nil, Options{PlattTargets: true, Ctx: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("Temperature under a cancelled context: %v", err)
	}
	S := make([]float64, 3*n)
	class := make([]int, n)
	for i := range class {
		class[i] = i % 3
		for c := 0; c < 3; c++ {
			S[3*i+c] = r.NormFloat64()
		}
		S[3*i+class[i]] += 1
	}
	if _, err := Softmax(S, class, nil, Options{Ctx: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("Softmax under a cancelled context: %v", err)
	}
}
