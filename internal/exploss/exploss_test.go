package exploss

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
)

type problem struct {
	x        *Data
	y, yt, H []float64
	omega    []float64
	b        float64
	Pt, Om   []float64
	K        int
}

func newProblem(t testing.TB, n, d, K int, seed uint64) *problem {
	r := rand.New(rand.NewPCG(seed, 99))
	X := make([]float64, n*d)
	for i := range X {
		X[i] = r.NormFloat64()
	}
	x, err := NewData(X, n, d, d)
	if err != nil {
		t.Fatal(err)
	}
	p := &problem{x: x, y: make([]float64, n), yt: make([]float64, n), H: make([]float64, n), omega: make([]float64, d), b: 0.9, K: K}
	for i := range p.y {
		p.y[i] = float64(2*r.IntN(2) - 1)
		p.H[i] = r.NormFloat64() * 0.5
	}
	for k := range p.omega {
		p.omega[k] = r.NormFloat64() / math.Sqrt(float64(d))
	}
	h := make([]float64, n)
	if _, err := Weights(p.yt, p.H, p.y, h, 0); err != nil {
		t.Fatal(err)
	}
	p.Pt = make([]float64, K*n)
	p.Om = make([]float64, K*d)
	for k := 0; k < K; k++ {
		w := p.Om[k*d : (k+1)*d]
		for j := range w {
			w[j] = r.NormFloat64()
		}
		for i := 0; i < n; i++ {
			for j := range w {
				p.Pt[k*n+i] += w[j] * X[i*d+j]
			}
		}
	}
	return p
}

// everything runs every sweep once and returns all results, flattened.
func everything(t testing.TB, p *problem) []float64 {
	n, d := p.x.N, p.x.D
	var out []float64
	s, c := make([]float64, n), make([]float64, n)
	if err := p.x.Sincos(s, c, p.omega); err != nil {
		t.Fatal(err)
	}
	out = append(append(out, s...), c...)
	ph, err := NewPhase(c, s, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	f, df := ph.Eval(p.b)
	out = append(out, f, df)
	fs, err := NewFreqStep(p.x, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	grad := make([]float64, d)
	loss, err := fs.Eval(p.omega, p.b, 0.01, grad)
	if err != nil {
		t.Fatal(err)
	}
	out = append(append(out, loss), grad...)
	lm, err := NewLandmark(p.x, p.Om, p.K, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	a := make([]float64, p.K)
	for k := range a {
		a[k] = 0.3 * float64(k)
	}
	ga := make([]float64, p.K)
	ll, err := lm.Eval(a, ga)
	if err != nil {
		t.Fatal(err)
	}
	out = append(append(out, ll), ga...)
	fl := make([]float64, p.K)
	if err := lm.FeatureLosses(fl, a); err != nil {
		t.Fatal(err)
	}
	out = append(out, fl...)
	h := make([]float64, n)
	sb, cb := math.Sincos(p.b)
	corr, err := WeightedCorrelation(h, p.yt, c, s, []float64{cb}, []float64{sb})
	if err != nil {
		t.Fatal(err)
	}
	out = append(append(out, corr), h...)
	H := append([]float64(nil), p.H...)
	yt := make([]float64, n)
	sw, err := Weights(yt, H, p.y, h, 0.37)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(append(out, sw), yt...), H...)
}

// TestDeterministic: the same bits for GOMAXPROCS 1, 2 and 7 and on every
// SIMD path, with n spanning several chunks and a partial last chunk.
func TestDeterministic(t *testing.T) {
	p := newProblem(t, 3*ChunkLen+1234, 7, 5, 1)
	restore, err := asm.SetPath("generic")
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	want := everything(t, p)
	restore()
	for _, path := range asm.Paths() {
		restore, err := asm.SetPath(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, procs := range []int{1, 2, 7} {
			runtime.GOMAXPROCS(procs)
			got := everything(t, p)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("path %s, GOMAXPROCS %d: value %d is %v, want %v", path, procs, i, got[i], want[i])
				}
			}
		}
		restore()
	}
}

// TestGradients compares each analytic derivative with a central finite
// difference (step 1e-6: truncation O(h²) ≈ 1e-12, rounding ≈ ε·L/h ≈ 1e-10
// relative), so a 1e-6 relative tolerance cannot hide a wrong formula.
func TestGradients(t *testing.T) {
	p := newProblem(t, 1500, 6, 4, 2)
	n, d := p.x.N, p.x.D
	const h = 1e-6
	fs, err := NewFreqStep(p.x, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	grad, tmp := make([]float64, d), make([]float64, d)
	const lambda = 0.05
	if _, err := fs.Eval(p.omega, p.b, lambda, grad); err != nil {
		t.Fatal(err)
	}
	for k := range p.omega {
		w := append([]float64(nil), p.omega...)
		w[k] += h
		lp, _ := fs.Eval(w, p.b, lambda, tmp)
		w[k] -= 2 * h
		lm, _ := fs.Eval(w, p.b, lambda, tmp)
		fd := (lp - lm) / (2 * h)
		if math.Abs(fd-grad[k]) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("FreqStep ∂/∂ω_%d = %v, finite difference %v", k, grad[k], fd)
		}
	}

	s, c := make([]float64, n), make([]float64, n)
	if err := p.x.Sincos(s, c, p.omega); err != nil {
		t.Fatal(err)
	}
	ph, err := NewPhase(c, s, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []float64{-3, -1, 0, 0.5, 2.9} {
		f, df := ph.Eval(b)
		fp, _ := ph.Eval(b + h)
		fm, _ := ph.Eval(b - h)
		if fd := (fp - fm) / (2 * h); math.Abs(fd-df) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("Phase f'(%v) = %v, finite difference %v", b, df, fd)
		}
		// and f itself against the definition
		var want float64
		for i := range p.yt {
			var pi float64
			for k := range p.omega {
				pi += p.omega[k] * p.x.At(i, k)
			}
			want += math.Exp(-p.yt[i] * math.Cos(pi-b))
		}
		if math.Abs(f-want) > 1e-11*want {
			t.Errorf("Phase f(%v) = %v, formula %v", b, f, want)
		}
	}

	lm, err := NewLandmark(p.x, p.Om, p.K, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	a := []float64{0.1, -0.7, 1.3, 2.2}
	ga, gt := make([]float64, p.K), make([]float64, p.K)
	if _, err := lm.Eval(a, ga); err != nil {
		t.Fatal(err)
	}
	for k := range a {
		ap := append([]float64(nil), a...)
		ap[k] += h
		lp, _ := lm.Eval(ap, gt)
		ap[k] -= 2 * h
		lmm, _ := lm.Eval(ap, gt)
		if fd := (lp - lmm) / (2 * h); math.Abs(fd-ga[k]) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("Landmark ∂/∂a_%d = %v, finite difference %v", k, ga[k], fd)
		}
	}
}

func TestBadInput(t *testing.T) {
	if _, err := NewData([]float64{1, math.NaN()}, 1, 2, 2); err == nil {
		t.Error("NaN in data accepted")
	}
	if _, err := NewData([]float64{1, 2, 3}, 2, 2, 2); !errors.Is(err, ErrShape) {
		t.Errorf("short data: %v", err)
	}
	if _, err := NewData(nil, 0, 2, 2); !errors.Is(err, ErrShape) {
		t.Errorf("empty data: %v", err)
	}
	x, _ := NewData([]float64{1, 2, 3, 4}, 2, 2, 2)
	if err := x.Sincos(make([]float64, 2), make([]float64, 2), []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("Sincos shape: %v", err)
	}
	if _, err := NewPhase([]float64{1}, []float64{0}, []float64{math.Inf(1)}); err == nil {
		t.Error("Inf target accepted")
	}
	if _, err := NewPhase([]float64{1}, []float64{0, 1}, []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("Phase shape: %v", err)
	}
	if _, err := NewFreqStep(x, []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("FreqStep shape: %v", err)
	}
	fs, _ := NewFreqStep(x, []float64{1, -1})
	if _, err := fs.Eval([]float64{1}, 0, 0, []float64{0, 0}); !errors.Is(err, ErrShape) {
		t.Errorf("FreqStep ω shape: %v", err)
	}
	if _, err := NewLandmark(x, []float64{1, 2, 3}, 2, []float64{1, 1}); !errors.Is(err, ErrShape) {
		t.Errorf("Landmark shape: %v", err)
	}
	if _, err := Weights(make([]float64, 2), make([]float64, 2), make([]float64, 3), make([]float64, 2), 0); !errors.Is(err, ErrShape) {
		t.Errorf("Weights shape: %v", err)
	}
	if _, err := WeightedCorrelation(make([]float64, 2), make([]float64, 2), make([]float64, 2), make([]float64, 3), []float64{1}, []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("WeightedCorrelation shape: %v", err)
	}
}

// TestSafeguard: exponents beyond ±700 are clamped, so huge weights stay
// finite instead of overflowing to +Inf.
func TestSafeguard(t *testing.T) {
	y := []float64{1, -1, 1}
	H := []float64{-1000, -1000, 1e308}
	yt := make([]float64, 3)
	sw, err := Weights(yt, H, y, make([]float64, 3), 0)
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-15*math.Abs(b) }
	if math.IsInf(sw, 0) || math.IsNaN(sw) || !near(yt[0], math.Exp(700)) || !near(yt[1], -math.Exp(-700)) || !near(yt[2], math.Exp(-700)) {
		t.Fatalf("Σw %v, yt %v", sw, yt)
	}
}

func ExamplePhase() {
	// Three samples whose projections p = ω·x are 0, π/2 and π, labels ±1.
	c := []float64{1, 0, -1}
	s := []float64{0, 1, 0}
	yt := []float64{1, 1, -1}
	ph, err := NewPhase(c, s, yt)
	if err != nil {
		panic(err)
	}
	f, df := ph.Eval(0)
	fmt.Printf("f(0) = %.4f, f'(0) = %.4f\n", f, df)
	// Output: f(0) = 1.7358, f'(0) = -1.0000
}
