package exploss

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSincosMany: Data.SincosMany gives, for every frequency, the bits of
// Data.Sincos at that frequency, on every path, in float32 and float64
// panels (column-major off AVX-512), under any thread limit, across a
// partial last chunk, block and panel, with frequencies from tiny to huge
// (arguments beyond 10⁶, reduced by the same trig path) and one or several
// frequencies.
func TestSincosMany(t *testing.T) {
	forEachPathAndPanels(t, func(path string) {
		for _, th := range []int{1, 3} {
			for _, m := range []int{1, 5} {
				sincosMany(t, path, th, m)
			}
		}
	})
}

func sincosMany(t *testing.T, path string, threads, m int) {
	const n, d = 2*ChunkLen + 3*BlockLen + sincosManyBlock/2 + 13, 7
	p := newProblem(t, n, d, 1, 23)
	p.x.SetThreads(threads)
	r := rand.New(rand.NewPCG(7, uint64(m)))
	scales := []float64{1, 1e-300, 3e5, 0.01, 40}
	om := make([]float64, m*d)
	for j := 0; j < m; j++ {
		for k := 0; k < d; k++ {
			om[j*d+k] = r.NormFloat64() * scales[j%len(scales)]
		}
	}
	if m > 1 {
		om[d+2] = 0 // a zero weight
	}
	s, c := make([]float64, m*n), make([]float64, m*n)
	for i := range s {
		s[i], c[i] = math.NaN(), math.NaN()
	}
	if err := p.x.SincosMany(s, c, om); err != nil {
		t.Fatal(err)
	}
	ws, wc := make([]float64, n), make([]float64, n)
	for j := 0; j < m; j++ {
		if err := p.x.Sincos(ws, wc, om[j*d:(j+1)*d]); err != nil {
			t.Fatal(err)
		}
		if !sameBits(s[j*n:(j+1)*n], ws) || !sameBits(c[j*n:(j+1)*n], wc) {
			for i := range ws {
				if math.Float64bits(s[j*n+i]) != math.Float64bits(ws[i]) || math.Float64bits(c[j*n+i]) != math.Float64bits(wc[i]) {
					t.Fatalf("%s, %d threads, m = %d: frequency %d sample %d: (%v, %v), Sincos (%v, %v)", path, threads, m, j, i, s[j*n+i], c[j*n+i], ws[i], wc[i])
				}
			}
		}
	}
}

// TestSincosManyShape: inconsistent lengths are a shape error, not a panic.
func TestSincosManyShape(t *testing.T) {
	p := newProblem(t, 100, 3, 1, 1)
	for _, tc := range []struct{ s, c, om int }{
		{200, 200, 5}, {200, 200, 0}, {200, 100, 6}, {100, 100, 6}, {300, 300, 6},
	} {
		err := p.x.SincosMany(make([]float64, tc.s), make([]float64, tc.c), make([]float64, tc.om))
		if !errors.Is(err, ErrShape) {
			t.Errorf("SincosMany with %d, %d outputs and %d weights: %v, want ErrShape", tc.s, tc.c, tc.om, err)
		}
	}
	if err := p.x.SincosMany(make([]float64, 200), make([]float64, 200), make([]float64, 6)); err != nil {
		t.Errorf("SincosMany 2 frequencies: %v", err)
	}
}

// TestPhaseSetSincos: a Phase pointed at other sines and cosines by
// SetSincos evaluates exactly as one made on them, and other lengths are a
// shape error that leaves it alone.
func TestPhaseSetSincos(t *testing.T) {
	const n, d = ChunkLen + 77, 5
	p := newProblem(t, n, d, 1, 3)
	s, c := make([]float64, 2*n), make([]float64, 2*n)
	om := append(append([]float64(nil), p.omega...), p.omega...)
	for k := d; k < 2*d; k++ {
		om[k] *= 3
	}
	if err := p.x.SincosMany(s, c, om); err != nil {
		t.Fatal(err)
	}
	ph, err := NewPhase(c[:n], s[:n], p.yt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewPhase(c[n:], s[n:], p.yt)
	if err != nil {
		t.Fatal(err)
	}
	if err := ph.SetSincos(c[n:n+5], s[n:]); !errors.Is(err, ErrShape) {
		t.Fatalf("SetSincos with 5 cosines: %v, want ErrShape", err)
	}
	f0, _ := ph.Eval(0.7)
	if w0, _ := want.Eval(0.7); f0 == w0 {
		t.Fatal("the two frequencies give the same phase objective: the test cannot tell them apart")
	}
	if err := ph.SetSincos(c[n:], s[n:]); err != nil {
		t.Fatal(err)
	}
	bs := []float64{-2, 0, 0.7, 3}
	got, gotD := make([]float64, len(bs)), make([]float64, len(bs))
	wf, wd := make([]float64, len(bs)), make([]float64, len(bs))
	if err := ph.EvalMany(bs, got, gotD); err != nil {
		t.Fatal(err)
	}
	if err := want.EvalMany(bs, wf, wd); err != nil {
		t.Fatal(err)
	}
	if !sameBits(got, wf) || !sameBits(gotD, wd) {
		t.Fatalf("after SetSincos: %v %v, want %v %v", got, gotD, wf, wd)
	}
}
