package asm

import (
	"github.com/rfkit/rfkit/internal/scalar"
	"math"
	"math/rand/v2"
	"testing"
)

// The differential tests: every path must be bit-identical to the pure-Go
// twin (NaN results compare equal to any NaN).

type kernelCase struct {
	name string
	run  func(d1, d2, x []float64) // d2 unused except by sincos
	ref  func(x float64) (float64, float64)
	two  bool
}

const shiftB = 0.8125 // CosShift's b in these tests

var kernelCases = []kernelCase{
	{"Cos", func(d1, _, x []float64) { Cos(d1, x) }, func(x float64) (float64, float64) { return scalar.Cos(x), 0 }, false},
	{"Sin", func(d1, _, x []float64) { Sin(d1, x) }, func(x float64) (float64, float64) { return scalar.Sin(x), 0 }, false},
	{"Sincos", func(d1, d2, x []float64) { Sincos(d1, d2, x) }, func(x float64) (float64, float64) { return scalar.Sincos(x) }, true},
	{"CosShift", func(d1, _, x []float64) { CosShift(d1, x, shiftB) }, func(x float64) (float64, float64) { return scalar.Cos(x - shiftB), 0 }, false},
	{"Exp", func(d1, _, x []float64) { Exp(d1, x) }, func(x float64) (float64, float64) { return scalar.Exp(x), 0 }, false},
}

func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// specials are mixed into vectors: they exercise the fallback lanes and the
// edges of every domain.
var specials = []float64{
	0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
	5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, -1e-20,
	math.MaxFloat64, -math.MaxFloat64, 1e22, 1e300, 0x1p30, -0x1p30, math.Nextafter(0x1p30, 2e9),
	math.Pi / 4, math.Pi / 2, math.Pi, 1.5707963267948966, 709.782712893384, 709.7827128933841,
	-708.3964185322641, -745.1332191019411, -745.1332191019412, 710, -746, 800, -800,
}

func randomInput(r *rand.Rand, n int, special float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		switch u := r.Float64(); {
		case u < special:
			x[i] = specials[r.IntN(len(specials))]
		case u < 0.5:
			x[i] = (r.Float64()*2 - 1) * 1000
		case u < 0.7:
			x[i] = (r.Float64()*2 - 1) * 50
		default:
			// any exponent
			x[i] = math.Float64frombits(r.Uint64())
		}
	}
	return x
}

const guard = -12345.678

func checkKernel(t *testing.T, kc kernelCase, x []float64, off int) {
	t.Helper()
	n := len(x)
	// Outputs sit at an offset inside a guarded buffer: nothing may be
	// written before or after them.
	b1 := make([]float64, n+off+9)
	b2 := make([]float64, n+off+9)
	for i := range b1 {
		b1[i], b2[i] = guard, guard
	}
	d1, d2 := b1[off:off+n], b2[off:off+n]
	kc.run(d1, d2, x)
	for i, v := range x {
		w1, w2 := kc.ref(v)
		if !sameBits(d1[i], w1) || (kc.two && !sameBits(d2[i], w2)) {
			t.Fatalf("%s(len %d, off %d)[%d]: x=%v (%#x) got %v,%v want %v,%v",
				kc.name, n, off, i, v, math.Float64bits(v), d1[i], d2[i], w1, w2)
		}
	}
	for i := range b1 {
		if i >= off && i < off+n {
			continue
		}
		if b1[i] != guard || b2[i] != guard {
			t.Fatalf("%s(len %d, off %d): wrote outside the output at %d", kc.name, n, off, i-off)
		}
	}
}

func TestKernelsMatchTwin(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 11))
		for _, kc := range kernelCases {
			for n := 0; n <= 257; n++ {
				for _, sp := range []float64{0, 0.05} {
					x := randomInput(r, n, sp)
					checkKernel(t, kc, x, n%7)
				}
			}
			for _, n := range []int{1000, 4096 + 3, 100003} {
				checkKernel(t, kc, randomInput(r, n, 0.001), 3)
			}
		}
	})
}

// TestKernelsUnaligned runs the kernels on sub-slices starting at every
// element offset of a 64-byte line.
func TestKernelsUnaligned(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 5))
		base := randomInput(r, 300, 0.02)
		for _, kc := range kernelCases {
			for off := 0; off < 8; off++ {
				checkKernel(t, kc, base[off:off+100+off], off)
			}
		}
	})
}

// TestKernelsAlias checks dst == x.
func TestKernelsAlias(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 9))
		for _, kc := range kernelCases {
			for _, n := range []int{0, 1, 7, 8, 9, 31, 64, 1001} {
				x := randomInput(r, n, 0.05)
				want1 := make([]float64, n)
				want2 := make([]float64, n)
				for i, v := range x {
					want1[i], want2[i] = kc.ref(v)
				}
				in := append([]float64(nil), x...)
				other := make([]float64, n)
				kc.run(in, other, in) // first output aliases the input
				for i := range x {
					if !sameBits(in[i], want1[i]) || (kc.two && !sameBits(other[i], want2[i])) {
						t.Fatalf("%s aliased (n=%d)[%d]: x=%v got %v want %v", kc.name, n, i, x[i], in[i], want1[i])
					}
				}
				if kc.two {
					in = append(in[:0], x...)
					kc.run(other, in, in) // second output aliases the input
					for i := range x {
						if !sameBits(in[i], want2[i]) || !sameBits(other[i], want1[i]) {
							t.Fatalf("%s aliased cos (n=%d)[%d]: x=%v", kc.name, n, i, x[i])
						}
					}
				}
			}
		}
	})
}

func TestKernelsPanicOnShortDst(t *testing.T) {
	for _, kc := range kernelCases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic for a short destination", kc.name)
				}
			}()
			kc.run(make([]float64, 3), make([]float64, 3), make([]float64, 4))
		}()
	}
}

// TestExpScalingEdges sweeps the arguments whose results are subnormal,
// overflow or sit at the scaling limits, where AVX-512's single VSCALEFPD and
// the two-step 2^k1·2^k2 of the other paths must agree bit for bit.
func TestExpScalingEdges(t *testing.T) {
	var x []float64
	for v := -746.5; v < -700; v += 0.000731 {
		x = append(x, v)
	}
	for v := 705.0; v < 711; v += 0.0001 {
		x = append(x, v)
	}
	checkEach := func(t *testing.T) { checkKernel(t, kernelCases[4], x, 1) }
	forEachPath(t, checkEach)
}
