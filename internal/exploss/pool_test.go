package exploss

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
)

// TestLayout: At reads back every value NewData was given, across a
// partial last panel, in the layout of every path; and every sweep gives the
// same bits over Data made on any path (panelled or column-major), run on
// any path.
func TestLayout(t *testing.T) {
	const n, d = 2*BlockLen + 77, 3
	X := make([]float64, n*(d+2))
	for i := range X {
		X[i] = float64(i)
	}
	var want []float64
	for _, made := range asm.Paths() {
		restore, err := asm.SetPath(made)
		if err != nil {
			t.Fatal(err)
		}
		x, err := NewData(X, n, d, d+2)
		if err != nil {
			t.Fatal(err)
		}
		p := newProblem(t, 2*ChunkLen+333, 5, 2, 9)
		restore()
		for i := 0; i < n; i++ {
			for k := 0; k < d; k++ {
				if got := x.At(i, k); got != X[i*(d+2)+k] {
					t.Fatalf("made on %s: At(%d, %d) = %v, want %v", made, i, k, got, X[i*(d+2)+k])
				}
			}
		}
		for _, run := range asm.Paths() {
			restore, err := asm.SetPath(run)
			if err != nil {
				t.Fatal(err)
			}
			got := everything(t, p)
			restore()
			if want == nil {
				want = got
			} else if !sameBits(got, want) {
				t.Fatalf("Data made on %s, swept on %s: results differ", made, run)
			}
		}
	}
}

// TestThreads: every sweep gives the same bits under any thread limit, and
// several fits sharing the pool at once do not disturb each other.
func TestThreads(t *testing.T) {
	p := newProblem(t, 5*ChunkLen+999, 6, 3, 4)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	p.x.SetThreads(1)
	want := everything(t, p)
	for _, th := range []int{0, 2, 3, 64} {
		p.x.SetThreads(th)
		if got := everything(t, p); !sameBits(got, want) {
			t.Fatalf("threads %d: results differ from one thread's", th)
		}
	}
	// Concurrent sweeps over separate Data of the same values.
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := *p
			xc := *p.x
			q.x = &xc
			q.x.SetThreads(2)
			for r := 0; r < 5; r++ {
				if !sameBits(everything(t, &q), want) {
					errs <- errors.New("concurrent sweeps: results differ")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestEvalMany: EvalMany gives the bits of one Eval per phase, for any
// thread limit, and rejects mismatched outputs.
func TestEvalMany(t *testing.T) {
	p := newProblem(t, 3*ChunkLen+5, 4, 1, 5)
	n := p.x.N
	s, c := make([]float64, n), make([]float64, n)
	if err := p.x.Sincos(s, c, p.omega); err != nil {
		t.Fatal(err)
	}
	ph, err := NewPhase(c, s, p.yt)
	if err != nil {
		t.Fatal(err)
	}
	bs := []float64{-3, -0.4, 0, 0.9, 2.5, 3.1}
	for _, th := range []int{1, 0, 2} {
		ph.SetThreads(th)
		f, df := make([]float64, len(bs)), make([]float64, len(bs))
		if err := ph.EvalMany(bs, f, df); err != nil {
			t.Fatal(err)
		}
		for j, b := range bs {
			wf, wd := ph.Eval(b)
			if math.Float64bits(f[j]) != math.Float64bits(wf) || math.Float64bits(df[j]) != math.Float64bits(wd) {
				t.Fatalf("threads %d, b = %v: EvalMany %v %v, Eval %v %v", th, b, f[j], df[j], wf, wd)
			}
		}
	}
	if err := ph.EvalMany(bs, make([]float64, 2), make([]float64, len(bs))); !errors.Is(err, ErrShape) {
		t.Errorf("EvalMany shape: %v", err)
	}
	if err := ph.EvalMany(nil, nil, nil); err != nil {
		t.Errorf("EvalMany of nothing: %v", err)
	}
}

// TestDataMethods: the Data forms of Weights and WeightedCorrelation equal
// the package functions and check the sample count.
func TestDataMethods(t *testing.T) {
	p := newProblem(t, 2*ChunkLen+3, 3, 1, 6)
	n := p.x.N
	h := make([]float64, n)
	for i := range h {
		h[i] = math.Sin(float64(i))
	}
	H1, H2 := append([]float64(nil), p.H...), append([]float64(nil), p.H...)
	y1, y2 := make([]float64, n), make([]float64, n)
	p.x.SetThreads(2)
	w1, err1 := Weights(y1, H1, p.y, h, 0.3)
	w2, err2 := p.x.Weights(y2, H2, p.y, h, 0.3)
	if err1 != nil || err2 != nil || w1 != w2 || !sameBits(y1, y2) || !sameBits(H1, H2) {
		t.Fatalf("Data.Weights differs: %v %v (%v, %v)", w1, w2, err1, err2)
	}
	c1, _ := WeightedCorrelation(y1, p.yt, H1, h, []float64{0.5}, []float64{0.25})
	c2, _ := p.x.WeightedCorrelation(y2, p.yt, H1, h, []float64{0.5}, []float64{0.25})
	if c1 != c2 || !sameBits(y1, y2) {
		t.Fatalf("Data.WeightedCorrelation differs: %v %v", c1, c2)
	}
	if _, err := p.x.Weights(y1[:5], H1[:5], p.y[:5], h[:5], 0); !errors.Is(err, ErrShape) {
		t.Errorf("Data.Weights on the wrong sample count: %v", err)
	}
	if _, err := p.x.WeightedCorrelation(y1[:5], p.yt[:5], H1[:5], h[:5], []float64{1}, []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("Data.WeightedCorrelation on the wrong sample count: %v", err)
	}
}

// TestFloat32Copy: Data holds every value rounded to float32 on every path
// and in both AVX-512 layouts (float32 and float64 panels): At reads back
// float64(float32(v)), and FreqStep gives the bits of asm.FreqStepSums over
// those values column-major. NewData rejects a value that leaves the
// float32 range, naming it, and accepts the largest float32.
func TestFloat32Copy(t *testing.T) {
	const n, d = BlockLen + 37, 3
	X := make([]float64, n*d)
	for i := range X {
		X[i] = 1/float64(i+3) + float64(i)*1e-3
	}
	yt := make([]float64, n)
	for i := range yt {
		yt[i] = float64(i%3) - 0.7
	}
	omega := []float64{0.3, -1.1, 0.7}
	defer func(v int) { float32From = v }(float32From)
	for _, path := range asm.Paths() {
		for _, from := range []int{0, math.MaxInt} { // float32 panels, float64 panels
			float32From = from
			float32Copy(t, path, X, yt, omega, n, d)
		}
	}
	if _, err := NewData([]float64{1, math.MaxFloat32}, 1, 2, 2); err != nil {
		t.Errorf("NewData(MaxFloat32): %v", err)
	}
	_, err := NewData([]float64{1, 2, 3, -1e39}, 2, 2, 2)
	if err == nil || !strings.Contains(err.Error(), "sample 1, input 1") {
		t.Errorf("NewData(-1e39): %v, want an error naming sample 1, input 1", err)
	}
}

// float32Copy is one path and layout of TestFloat32Copy.
func float32Copy(t *testing.T, path string, X, yt, omega []float64, n, d int) {
	restore, err := asm.SetPath(path)
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	x, err := NewData(X, n, d, d)
	if err != nil {
		t.Fatal(err)
	}
	if (x.panel || asm.Columns32()) && (x.x32 != nil) != (float32From == 0) {
		t.Fatalf("%s: float32 storage %v (panels %v) with float32From %d", path, x.x32 != nil, x.panel, float32From)
	}
	cols := make([]float64, d*n)
	rounded := 0
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			want := float64(float32(X[i*d+k]))
			if want != X[i*d+k] {
				rounded++
			}
			if got := x.At(i, k); got != want {
				t.Fatalf("%s: At(%d, %d) = %v, want float32 rounding %v of %v", path, i, k, got, want, X[i*d+k])
			}
			cols[k*n+i] = want
		}
	}
	if rounded < n {
		t.Fatalf("only %d of %d values change when rounded: the test does not test rounding", rounded, n*d)
	}
	fs, err := NewFreqStep(x, yt)
	if err != nil {
		t.Fatal(err)
	}
	grad := make([]float64, d)
	loss, err := fs.Eval(omega, 0.4, 0, grad)
	if err != nil {
		t.Fatal(err)
	}
	var acc [8]float64
	accX := make([][8]float64, d)
	proj := make([]float64, n)
	asm.FreqStepSums(proj, yt, cols, n, omega, 0.4, &acc, accX)
	if want := asm.SumLanes(&acc) * (1 / float64(n)); math.Float64bits(loss) != math.Float64bits(want) {
		t.Fatalf("%s: loss %v, want %v over the float32 values", path, loss, want)
	}
	for k := range grad {
		if want := asm.SumLanes(&accX[k]) * (1 / float64(n)); math.Float64bits(grad[k]) != math.Float64bits(want) {
			t.Fatalf("%s: grad[%d] %v, want %v over the float32 values", path, k, grad[k], want)
		}
	}
	s, c := make([]float64, n), make([]float64, n)
	ws, wc := make([]float64, n), make([]float64, n)
	if err := x.Sincos(s, c, omega); err != nil {
		t.Fatal(err)
	}
	asm.SincosDot(ws, wc, cols, n, omega)
	for i := range s {
		if math.Float64bits(s[i]) != math.Float64bits(ws[i]) || math.Float64bits(c[i]) != math.Float64bits(wc[i]) {
			t.Fatalf("%s: Sincos %d is %v, %v, want %v, %v over the float32 values", path, i, s[i], c[i], ws[i], wc[i])
		}
	}
}
