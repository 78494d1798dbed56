package asm

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// specials32 are the float32 edge values mixed into the dot tests' rows.
var specials32 = []float32{
	0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
	math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 1e-40, 1.1754944e-38,
	math.MaxFloat32, -math.MaxFloat32, 1e30, -3.5, 1,
}

// dotInput draws w and x of length n; with probability special an element
// is an edge value (±0, subnormal, NaN, ±Inf, huge).
func dotInput(r *rand.Rand, n int, special float64) ([]float64, []float32) {
	w, x := make([]float64, n), make([]float32, n)
	for i := range w {
		switch u := r.Float64(); {
		case u < special:
			w[i] = specials[r.IntN(len(specials))]
		case u < 0.8:
			w[i] = r.NormFloat64()
		default:
			w[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(200)-100))
		}
		switch u := r.Float64(); {
		case u < special:
			x[i] = specials32[r.IntN(len(specials32))]
		case u < 0.8:
			x[i] = float32(r.NormFloat64())
		default:
			x[i] = math.Float32frombits(r.Uint32())
		}
	}
	return w, x
}

func widen(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// checkDot compares every dot-family kernel on (w, x) with the twin, on
// the current path; w and x are sub-slices at any alignment.
func checkDot(t *testing.T, w []float64, x []float32) {
	t.Helper()
	x64 := widen(x)
	want := dotRef(w, x)
	if got := DotF32(w, x); !sameBits(got, want) {
		t.Fatalf("DotF32(len %d) = %v (%#x), twin %v (%#x)", len(x), got, math.Float64bits(got), want, math.Float64bits(want))
	}
	if got := DotF64(w, x64); !sameBits(got, want) {
		t.Fatalf("DotF64(len %d) = %v, twin of the float32 row %v", len(x), got, want)
	}
	if w2 := dotRef(w, x64); !sameBits(w2, want) {
		t.Fatalf("twin: float64 row %v, float32 row %v", w2, want)
	}
	for _, a := range []float64{0.75, -3e-5, math.Copysign(0, -1)} {
		// y sits inside a guarded buffer: nothing may be written around it.
		buf := make([]float64, len(x)+3)
		for i := range buf {
			buf[i] = guard
		}
		y, yr := buf[1:1+len(x)], make([]float64, len(x))
		for i := range y {
			y[i] = w[len(w)-1-i]
		}
		copy(yr, y)
		AxpyF32(a, x, y)
		axpyRef(a, x, yr)
		if buf[0] != guard || buf[len(buf)-2] != guard || buf[len(buf)-1] != guard {
			t.Fatalf("AxpyF32(len %d) wrote outside y", len(x))
		}
		for i := range y {
			if !sameBits(y[i], yr[i]) {
				t.Fatalf("AxpyF32(%v, len %d)[%d] = %v, twin %v", a, len(x), i, y[i], yr[i])
			}
		}
		for i := range y {
			y[i] = w[len(w)-1-i]
		}
		AxpyF64(a, x64, y)
		for i := range y {
			if !sameBits(y[i], yr[i]) {
				t.Fatalf("AxpyF64(%v, len %d)[%d] = %v, twin %v", a, len(x), i, y[i], yr[i])
			}
		}
	}
}

// TestDotPaths: every path gives the twin's bits at every length (tails of
// every size), alignment and mix of edge values.
func TestDotPaths(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 5))
		lengths := []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 100, 101, 257, 1000}
		for n := 4; n < 70; n++ {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			for _, special := range []float64{0, 0.05, 0.5} {
				for off := 0; off < 4; off++ {
					w, x := dotInput(r, n+off, special)
					checkDot(t, w[off:], x[off:])
				}
			}
		}
	})
}

// TestDotSignedZero: a lane that underflows to −0 becomes +0 when the last
// partial group pads it (s + 0), on every path, as the contract says; with
// no partial group −0 survives.
func TestDotSignedZero(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		for _, n := range []int{16, 17, 32, 40} {
			w, x := make([]float64, n), make([]float32, n)
			for i := range w {
				w[i], x[i] = -1e-300, 1e-40 // each product underflows to −0
			}
			got, want := DotF32(w, x), dotRef(w, x)
			if !sameBits(got, want) {
				t.Fatalf("n=%d: %v (sign %v), twin %v (sign %v)", n, got, math.Signbit(got), want, math.Signbit(want))
			}
			if math.Signbit(want) != (n%16 == 0) {
				t.Fatalf("n=%d: twin %v: the −0 of 16 lanes must survive only without a partial group", n, want)
			}
		}
	})
}

// TestDotAccuracy checks the contract's bound against the exact sum (a
// math/big float wide enough to hold every product and partial sum
// exactly), on well- and ill-conditioned sums.
func TestDotAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	worst := 0.0
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(300)
		w, x := make([]float64, n), make([]float32, n)
		for i := range w {
			w[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20))
			x[i] = float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20)))
		}
		if trial%3 == 0 { // cancellation: append the negated products
			for i := range n / 2 {
				w[n-1-i] = -w[i] * (1 + 0x1p-30)
				x[n-1-i] = x[i]
			}
		}
		exact, abs := new(big.Float).SetPrec(2048), new(big.Float).SetPrec(2048)
		for i := range w {
			p := new(big.Float).SetPrec(2048).Mul(big.NewFloat(w[i]), big.NewFloat(float64(x[i])))
			exact.Add(exact, p)
			abs.Add(abs, p.Abs(p))
		}
		k := (n + dotLanes - 1) / dotLanes
		m := float64(k + 4)
		gamma := m * 0x1p-53 / (1 - m*0x1p-53)
		bound, _ := new(big.Float).Mul(abs, big.NewFloat(gamma)).Float64()
		for _, p := range Paths() {
			restore, err := SetPath(p)
			if err != nil {
				t.Fatal(err)
			}
			got := DotF32(w, x)
			restore()
			diff := new(big.Float).SetPrec(2048).Sub(big.NewFloat(got), exact)
			e, _ := diff.Abs(diff).Float64()
			if e > bound {
				t.Fatalf("%s: n=%d: |error| %g > bound %g", p, n, e, bound)
			}
			if s, _ := abs.Float64(); s > 0 {
				worst = max(worst, e/s/0x1p-53)
			}
		}
	}
	t.Logf("worst error: %.2f u·Σ|w_i x_i|", worst)
}

func TestDotPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"DotF32":  func() { DotF32(make([]float64, 3), make([]float32, 2)) },
		"DotF64":  func() { DotF64(make([]float64, 3), make([]float64, 4)) },
		"AxpyF32": func() { AxpyF32(1, make([]float32, 3), make([]float64, 2)) },
		"AxpyF64": func() { AxpyF64(1, make([]float64, 3), make([]float64, 4)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic on mismatched lengths", name)
				}
			}()
			f()
		}()
	}
	PrefetchF32(nil) // a hint: any slice, no effect
	PrefetchF32(make([]float32, 1)[1:])
	PrefetchF32(make([]float32, 1000)[3:])
}

// FuzzDot feeds arbitrary bits to the dot family on every path and
// compares with the twin.
func FuzzDot(f *testing.F) {
	seed := make([]byte, 0, 12*len(specials32))
	for i, v := range specials32 {
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(specials[i%len(specials)]))
		seed = binary.LittleEndian.AppendUint32(seed, math.Float32bits(v))
	}
	f.Add(seed, uint8(0))
	f.Add([]byte{1, 2, 3}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, off uint8) {
		n := len(data) / 12
		w, x := make([]float64, n), make([]float32, n)
		for i := range w {
			w[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[12*i:]))
			x[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[12*i+8:]))
		}
		o := min(int(off)%4, n)
		for _, p := range Paths() {
			restore, err := SetPath(p)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(p, func(t *testing.T) { checkDot(t, w[o:], x[o:]) })
			restore()
		}
	})
}

// BenchmarkDot times one DotF32 + AxpyF32 pair (a coordinate-descent
// visit's arithmetic) per path, on a row in cache.
func BenchmarkDot(b *testing.B) {
	for _, n := range []int{100, 1000} {
		r := rand.New(rand.NewPCG(1, 2))
		w, x := make([]float64, n), make([]float32, n)
		for i := range w {
			w[i], x[i] = r.NormFloat64(), float32(r.NormFloat64())
		}
		for _, p := range Paths() {
			b.Run(fmt.Sprintf("n=%d/path=%s", n, p), func(b *testing.B) {
				defer mustPath(b, p)()
				s := 0.0
				for b.Loop() {
					s += DotF32(w, x)
					AxpyF32(1e-9, x, w)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
				_ = s
			})
		}
	}
}

// contractDot is DotF32's documented loop, transcribed literally.
func contractDot(w []float64, x []float32) float64 {
	zero := dotPad
	var s [16]float64
	for i := range x {
		s[i%16] = math.FMA(w[i], float64(x[i]), s[i%16])
	}
	if r := len(x) % 16; r > 0 {
		for l := r; l < 16; l++ {
			s[l] += zero
		}
	}
	for h := 8; h >= 1; h /= 2 {
		for l := 0; l < h; l++ {
			s[l] += s[l+h]
		}
	}
	return s[0]
}

// TestDotContract: the twin is the loop of DotF32's doc comment, bit for
// bit (so every path is too, by TestDotPaths).
func TestDotContract(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for n := 0; n < 80; n++ {
		for _, special := range []float64{0, 0.3} {
			w, x := dotInput(r, n, special)
			if got, want := dotRef(w, x), contractDot(w, x); !sameBits(got, want) {
				t.Fatalf("n=%d: twin %v, documented loop %v", n, got, want)
			}
		}
	}
}
