package exploss

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
)

// TestFreqStepSincos: FreqStep.Sincos gives the bits of Data.Sincos at any
// ω, from the stored projections (no sweep over X) exactly when ω is the
// latest evaluated point or the one of the lowest objective since Restart,
// and FreqStep.Correlation the bits of Sincos + Data.WeightedCorrelation
// at those points (and nothing at others),
// on every path, in float64 and float32 panels, under any thread limit,
// across a partial last chunk and panel.
func TestFreqStepSincos(t *testing.T) {
	forEachPathAndPanels(t, func(path string) {
		for _, th := range []int{1, 3} {
			freqStepSincos(t, path, th)
		}
	})
}

// forEachPathAndPanels runs f on every SIMD path the machine can run, once
// with float32 panels and once with float64 panels, at GOMAXPROCS 3 (so a
// thread limit of 3 has three cores to ask for), restoring the path, the
// layout and GOMAXPROCS after.
func forEachPathAndPanels(t *testing.T, f func(path string)) {
	t.Helper()
	defer func(v int) { float32From = v }(float32From)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	for _, path := range asm.Paths() {
		for _, from := range []int{0, math.MaxInt} { // float32 panels, float64 panels
			float32From = from
			restore, err := asm.SetPath(path)
			if err != nil {
				t.Fatal(err)
			}
			f(path)
			restore()
		}
	}
}

func freqStepSincos(t *testing.T, path string, threads int) {
	const n, d = 2*ChunkLen + 3*BlockLen + 13, 7
	p := newProblem(t, n, d, 1, 17)
	p.x.SetThreads(threads)
	fs, err := NewFreqStep(p.x, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	point := func(scale float64) []float64 {
		w := make([]float64, d)
		for k := range w {
			w[k] = p.omega[k] + r.NormFloat64()*scale
		}
		return w
	}
	grad := make([]float64, d)
	eval := func(w []float64) float64 {
		l, err := fs.Eval(w, p.b, 0.01, grad)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	s, c := make([]float64, n), make([]float64, n)
	ws, wc := make([]float64, n), make([]float64, n)
	check := func(what string, w []float64, stored bool) {
		t.Helper()
		for i := range s {
			s[i], c[i] = math.NaN(), math.NaN()
		}
		got, err := fs.Sincos(s, c, w)
		if err != nil {
			t.Fatal(err)
		}
		if got != stored {
			t.Fatalf("%s, %d threads: %s: Sincos from the stored projections %v, want %v", path, threads, what, got, stored)
		}
		if err := p.x.Sincos(ws, wc, w); err != nil {
			t.Fatal(err)
		}
		if !sameBits(s, ws) || !sameBits(c, wc) {
			t.Fatalf("%s, %d threads: %s: Sincos differs from Data.Sincos", path, threads, what)
		}
		// Correlation: the bits of Sincos + WeightedCorrelation, or nothing.
		b := r.Float64() * 7
		cb, sb := math.Cos(b), math.Sin(b)
		h, wh := make([]float64, n), make([]float64, n)
		for i := range h {
			h[i] = math.NaN()
		}
		corr, ok, err := fs.Correlation(h, w, cb, sb)
		if err != nil {
			t.Fatal(err)
		}
		if ok != stored {
			t.Fatalf("%s, %d threads: %s: Correlation from the stored projections %v, want %v", path, threads, what, ok, stored)
		}
		if !ok {
			if !math.IsNaN(h[0]) || corr != 0 {
				t.Fatalf("%s, %d threads: %s: Correlation without a kept point wrote h or returned %v", path, threads, what, corr)
			}
			return
		}
		want, err := p.x.WeightedCorrelation(wh, p.yt, wc, ws, []float64{cb}, []float64{sb})
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(corr) != math.Float64bits(want) || !sameBits(h, wh) {
			t.Fatalf("%s, %d threads: %s: Correlation %v differs from Sincos + WeightedCorrelation %v", path, threads, what, corr, want)
		}
	}
	w0 := point(0)
	check("before any evaluation", w0, false)
	l0 := eval(w0)
	check("the only evaluation", w0, true)
	// A worse point: w0 stays the best, w1 is the latest.
	w1 := point(5)
	if l1 := eval(w1); !(l1 > l0) {
		t.Fatalf("test setup: f(w1) = %v not above f(w0) = %v", l1, l0)
	}
	check("the latest of two", w1, true)
	check("the best of two", w0, true)
	// Another worse point replaces w1 (the latest), not w0 (the best).
	w2 := point(5)
	eval(w2)
	check("the latest of three", w2, true)
	check("the best of three", w0, true)
	check("an evaluation replaced", w1, false)
	// A copy with one bit changed is another point.
	w3 := append([]float64(nil), w0...)
	w3[d-1] = math.Nextafter(w3[d-1], math.Inf(1))
	check("the best point moved by one ulp", w3, false)
	// After Restart w0 no longer holds its slot against new points.
	fs.Restart()
	w4, w5 := point(5), point(6)
	eval(w4)
	eval(w5)
	check("the latest after Restart", w5, true)
	check("the first after Restart", w4, true)
	check("an evaluation before Restart", w0, false)
	// Shapes.
	if _, err := fs.Sincos(s[1:], c, w0); !errors.Is(err, ErrShape) {
		t.Errorf("short output: %v", err)
	}
	if _, err := fs.Sincos(s, c, w0[1:]); !errors.Is(err, ErrShape) {
		t.Errorf("short ω: %v", err)
	}
	if _, _, err := fs.Correlation(s[1:], w0, 1, 0); !errors.Is(err, ErrShape) {
		t.Errorf("Correlation, short output: %v", err)
	}
	if _, _, err := fs.Correlation(s, w0[1:], 1, 0); !errors.Is(err, ErrShape) {
		t.Errorf("Correlation, short ω: %v", err)
	}
}
