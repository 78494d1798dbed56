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

// TestFreqStepUseProjections: with the caller's buffers (UseProjections)
// the evaluations, Sincos and Correlation give the bits of a FreqStep with
// its own; the projections land in those buffers (no buffer of its own is
// made); Spare hands out the buffer not holding ω's projections and
// forgets the evaluation in it; Correlation refuses to write the
// projections it reads; Sincos into a kept evaluation's buffer sweeps X
// and forgets that evaluation; and UseProjections checks its buffers.
func TestFreqStepUseProjections(t *testing.T) {
	forEachPathAndPanels(t, func(path string) {
		const n, d = ChunkLen + 2*BlockLen + 5, 6
		p := newProblem(t, n, d, 1, 23)
		ref, err := NewFreqStep(p.x, p.yt)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := NewFreqStep(p.x, p.yt)
		if err != nil {
			t.Fatal(err)
		}
		p0, p1 := make([]float64, n), make([]float64, n)
		if err := fs.UseProjections(p0, p1); err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 8))
		w0, w1 := make([]float64, d), make([]float64, d)
		for k := range w0 {
			w0[k] = p.omega[k]
			w1[k] = p.omega[k] + r.NormFloat64()*5
		}
		g, gr := make([]float64, d), make([]float64, d)
		for _, w := range [][]float64{w0, w1} {
			l, err := fs.Eval(w, p.b, 0.01, g)
			if err != nil {
				t.Fatal(err)
			}
			lr, err := ref.Eval(w, p.b, 0.01, gr)
			if err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(l) != math.Float64bits(lr) || !sameBits(g, gr) {
				t.Fatalf("%s: Eval with the caller's buffers differs", path)
			}
		}
		if fs.own[0] != nil || fs.own[1] != nil {
			t.Fatalf("%s: a buffer of its own made with the caller's in use", path)
		}
		// w0 (the best) and w1 (the latest) are in p0 and p1, in some order.
		s, c, ws, wc := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		if err := p.x.Sincos(ws, wc, w1); err != nil {
			t.Fatal(err)
		}
		h := fs.Spare(w1)
		if h == nil || (&h[0] != &p0[0] && &h[0] != &p1[0]) {
			t.Fatalf("%s: Spare(w1) is not one of the caller's buffers", path)
		}
		kept := p0
		if &h[0] == &p0[0] {
			kept = p1
		}
		if _, _, err := fs.Correlation(kept, w1, 1, 0); !errors.Is(err, ErrShape) {
			t.Fatalf("%s: Correlation writing the projections it reads: %v", path, err)
		}
		cb, sb := math.Cos(0.4), math.Sin(0.4)
		corr, ok, err := fs.Correlation(h, w1, cb, sb)
		if err != nil || !ok {
			t.Fatalf("%s: Correlation at w1 into the spare buffer: ok %v, %v", path, ok, err)
		}
		wh := make([]float64, n)
		want, err := p.x.WeightedCorrelation(wh, p.yt, wc, ws, []float64{cb}, []float64{sb})
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(corr) != math.Float64bits(want) || !sameBits(h, wh) {
			t.Fatalf("%s: Correlation into the spare buffer differs", path)
		}
		// w0's evaluation was in the spare buffer: forgotten.
		if _, ok, _ := fs.Correlation(make([]float64, n), w0, cb, sb); ok {
			t.Fatalf("%s: the evaluation in the spare buffer is still kept", path)
		}
		if fs.Spare(w0) != nil {
			t.Fatalf("%s: Spare at a forgotten point", path)
		}
		// Sincos into the kept buffer: a sweep, the bits of Data.Sincos, and
		// w1 forgotten after.
		stored, err := fs.Sincos(kept, c, w1)
		if err != nil || stored || !sameBits(kept, ws) || !sameBits(c, wc) {
			t.Fatalf("%s: Sincos into the kept buffer: stored %v, %v, or other bits", path, stored, err)
		}
		if stored, _ := fs.Sincos(s, c, w1); stored {
			t.Fatalf("%s: an overwritten evaluation is still kept", path)
		}
		// Back to its own buffers, made at the next evaluation.
		if err := fs.UseProjections(nil, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := fs.Eval(w0, p.b, 0.01, g); err != nil {
			t.Fatal(err)
		}
		if fs.own[0] == nil || &fs.proj[0][0] == &p0[0] {
			t.Fatalf("%s: UseProjections(nil, nil) did not go back to its own buffers", path)
		}
		if stored, _ := fs.Sincos(s, c, w0); !stored {
			t.Fatalf("%s: w0 not kept in its own buffers", path)
		}
		for _, bad := range [][2][]float64{{p0, p0}, {p0, nil}, {nil, p1}, {p0[1:], p1}, {p0, make([]float64, n+1)}} {
			if err := fs.UseProjections(bad[0], bad[1]); !errors.Is(err, ErrShape) {
				t.Errorf("%s: UseProjections of %d and %d values: %v, want ErrShape", path, len(bad[0]), len(bad[1]), err)
			}
		}
	})
}
