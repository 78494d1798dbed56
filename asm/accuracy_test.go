package asm

import (
	"github.com/rfkit/rfkit/internal/scalar"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/poly"
	"github.com/rfkit/rfkit/internal/refmath"
)

// Accuracy contract: cos, sin and exp are within 1 ULP of the exact value
// (internal/refmath, ≥ 240 correct bits). The twins are checked here; every
// SIMD path is bit-identical to them (diff_test.go), so the bound carries over.

func accuracySamples(t *testing.T) int {
	if testing.Short() {
		return 3000
	}
	return 20000
}

type ulpStat struct {
	max  float64
	arg  float64
	name string
}

func (s *ulpStat) add(name string, x, e float64) {
	if e > s.max || math.IsNaN(e) {
		s.max, s.arg, s.name = e, x, name
	}
}

func checkTrigAt(t *testing.T, st *ulpStat, x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return
	}
	s, c := scalar.Sincos(x)
	st.add("sin", x, refmath.ULPError(s, refmath.Sin(x)))
	st.add("cos", x, refmath.ULPError(c, refmath.Cos(x)))
	if s != scalar.Sin(x) || c != scalar.Cos(x) {
		t.Fatalf("sincos(%v) disagrees with sin/cos", x)
	}
}

func TestTrigAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	n := accuracySamples(t)
	ranges := []struct {
		name string
		gen  func() float64
	}{
		{"[-pi,pi]", func() float64 { return (r.Float64()*2 - 1) * math.Pi }},
		{"[-1e3,1e3]", func() float64 { return (r.Float64()*2 - 1) * 1e3 }},
		{"[-1e6,1e6]", func() float64 { return (r.Float64()*2 - 1) * 1e6 }},
		{"bit patterns", func() float64 { return math.Float64frombits(r.Uint64()) }},
		{"exponents -30..40", func() float64 {
			return math.Ldexp(1+r.Float64(), r.IntN(71)-30) * float64(1-2*r.IntN(2))
		}},
	}
	for _, rg := range ranges {
		var st ulpStat
		for i := 0; i < n; i++ {
			checkTrigAt(t, &st, rg.gen())
		}
		t.Logf("%-18s max %.3f ULP (%s at %v)", rg.name, st.max, st.name, st.arg)
		if !(st.max <= 1) {
			t.Errorf("%s: %s(%v) is %.3f ULP off, contract is 1", rg.name, st.name, st.arg, st.max)
		}
	}
}

// TestTrigHardCases: arguments next to multiples of π/2 (where the reduced
// argument cancels most), and both sides of every switch point of the
// reduction: the vector-domain bound, π/4 quadrant edges, 2^k.
func TestTrigHardCases(t *testing.T) {
	var st ulpStat
	check := func(x float64) {
		for _, v := range []float64{x, -x} {
			for _, w := range []float64{v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1))} {
				checkTrigAt(t, &st, w)
			}
		}
	}
	piOver2 := refmath.Pi(300)
	piOver2.Quo(piOver2, refmath.Pi(300).SetFloat64(2))
	r := rand.New(rand.NewPCG(5, 6))
	ks := []int64{1, 2, 3, 4, 5, 6, 7, 8, 100, 1000, 12345, 1 << 19, 1<<19 + 1, 1 << 20, 683565275, 1 << 29, 1<<30 - 1}
	for i := 0; i < 200; i++ {
		ks = append(ks, r.Int64N(1<<31))
	}
	for _, k := range ks {
		kf := refmath.Pi(300).SetInt64(k)
		v, _ := kf.Mul(kf, piOver2).Float64()
		check(v)
		// the odd multiples of π/4: quadrant boundaries of the reduction
		kf.SetInt64(2*k + 1)
		kf.Mul(kf, piOver2)
		kf.Quo(kf, refmath.Pi(300).SetFloat64(2))
		v, _ = kf.Float64()
		check(v)
	}
	for _, x := range []float64{
		poly.TrigFastMax, 0x1p20, 0x1p31, 0x1p52, 0x1p53, 1e22, 6381956970095103 * 0x1p797,
		math.MaxFloat64, 5e-324, 2.2250738585072014e-308, 1e-8, 0.5, 0.785398, 0.7853981633974483,
	} {
		check(x)
	}
	t.Logf("hard cases: max %.3f ULP (%s at %v)", st.max, st.name, st.arg)
	if !(st.max <= 1) {
		t.Errorf("%s(%v) is %.3f ULP off", st.name, st.arg, st.max)
	}
}

func TestTrigSpecialValues(t *testing.T) {
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if s, c := scalar.Sincos(x); !math.IsNaN(s) || !math.IsNaN(c) {
			t.Errorf("sincos(%v) = %v, %v; want NaN", x, s, c)
		}
	}
	if s := scalar.Sin(math.Copysign(0, -1)); math.Float64bits(s) != 1<<63 {
		t.Errorf("sin(-0) = %v, want -0", s)
	}
	if s := scalar.Sin(0); math.Float64bits(s) != 0 {
		t.Errorf("sin(+0) = %v, want +0", s)
	}
	if c := scalar.Cos(math.Copysign(0, -1)); c != 1 {
		t.Errorf("cos(-0) = %v", c)
	}
	if s := scalar.Sin(5e-324); s != 5e-324 {
		t.Errorf("sin(min subnormal) = %v", s)
	}
}

func TestExpAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n := accuracySamples(t)
	ranges := []struct {
		name string
		gen  func() float64
	}{
		{"[-1,1]", func() float64 { return r.Float64()*2 - 1 }},
		{"[-50,50]", func() float64 { return (r.Float64()*2 - 1) * 50 }},
		{"[-709,709]", func() float64 { return (r.Float64()*2 - 1) * 709 }},
		{"subnormal results", func() float64 { return -708.4 - r.Float64()*36.8 }},
		{"near overflow", func() float64 { return 709.78271289338397 - r.Float64()*1 }},
		{"tiny |x|", func() float64 { return math.Ldexp(r.Float64()-0.5, -r.IntN(1000)) }},
	}
	for _, rg := range ranges {
		var st ulpStat
		for i := 0; i < n; i++ {
			x := rg.gen()
			st.add("exp", x, refmath.ULPError(scalar.Exp(x), refmath.Exp(x)))
		}
		t.Logf("%-18s max %.3f ULP at %v", rg.name, st.max, st.arg)
		if !(st.max <= 1) {
			t.Errorf("%s: exp(%v) is %.3f ULP off, contract is 1", rg.name, st.arg, st.max)
		}
	}
}

func TestExpEdges(t *testing.T) {
	cases := []struct{ x, want float64 }{
		{math.Inf(1), math.Inf(1)},
		{math.Inf(-1), 0},
		{0, 1},
		{math.Copysign(0, -1), 1},
		{709.782712893384, 1.7976931348622732e308}, // finite: Go's math.Exp says +Inf
		{709.7827128933841, math.Inf(1)},
		{710, math.Inf(1)},
		{1e300, math.Inf(1)},
		{-745.1332191019411, 5e-324}, // the smallest subnormal
		{-745.1332191019412, 0},
		{-746, 0},
		{-1e300, 0},
		{5e-324, 1},
	}
	for _, c := range cases {
		got := scalar.Exp(c.x)
		if got != c.want {
			// the finite value near overflow is checked to 1 ULP, not exactly
			if e := refmath.ULPError(got, refmath.Exp(c.x)); math.IsInf(c.want, 0) || c.want == 0 || e > 1 {
				t.Errorf("exp(%v) = %v, want %v", c.x, got, c.want)
			}
		}
	}
	if !math.IsNaN(scalar.Exp(math.NaN())) {
		t.Error("exp(NaN) is not NaN")
	}
	// every subnormal result within 1 ULP of the subnormal spacing
	for x := -708.5; x > -745.2; x -= 0.0137 {
		if e := refmath.ULPError(scalar.Exp(x), refmath.Exp(x)); e > 1 {
			t.Fatalf("exp(%v) = %v is %.3f ULP off", x, scalar.Exp(x), e)
		}
	}
}

// TestFastReductionExact checks the vector-domain reduction itself: rh + rl
// must equal x − k·π/2 to 2^-90 relative (its error bound is ≈2^-130
// absolute against |r| ≥ 2^-62), on random arguments and next to multiples
// of π/2 up to the domain bound, where the Fast2Sum step meets |t1| < |p2|.
func TestFastReductionExact(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 41))
	xs := []float64{poly.TrigFastMax, -poly.TrigFastMax, 1, 0.7853981633974483, 0.7853981633974484}
	for i := 0; i < 3000; i++ {
		xs = append(xs, math.Ldexp(1+r.Float64(), r.IntN(31)-1)*float64(1-2*r.IntN(2)))
	}
	pio2 := refmath.Pi(400)
	pio2.Quo(pio2, refmath.Pi(400).SetFloat64(2))
	for i := 0; i < 2000; i++ {
		k := refmath.Pi(400).SetInt64(r.Int64N(683565275) + 1)
		v, _ := k.Mul(k, pio2).Float64()
		xs = append(xs, v, math.Nextafter(v, 0), math.Nextafter(v, 2e9))
	}
	for _, x := range xs {
		rh, rl, kb := scalar.TrigReduce(x)
		k, want := refmath.ReducePiOver2(x)
		// Next to an odd multiple of π/4 our k may be the other neighbour
		// (x·2/π is rounded first); r then differs by exactly ±π/2.
		ours := int64(math.Float64frombits(kb) - poly.RoundShift)
		if d := ours - k.Int64(); d != 0 {
			if d != 1 && d != -1 || math.Abs(rh) < 0.78 {
				t.Fatalf("x=%v: k=%d, want %d", x, ours, k.Int64())
			}
			want.Sub(want, refmath.Pi(400).Mul(pio2, refmath.Pi(400).SetInt64(d)))
		}
		got := refmath.Pi(400).SetFloat64(rh)
		got.Add(got, refmath.Pi(400).SetFloat64(rl))
		got.Sub(got, want)
		if want.Sign() != 0 {
			got.Quo(got, want)
		}
		if e, _ := got.Float64(); math.Abs(e) > 0x1p-90 {
			t.Fatalf("x=%v: reduction relative error %g", x, e)
		}
	}
}
