package scalar

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/refmath"
)

// phCheck compares reducePiOver2(x) with the big.Float reduction and reports
// any violation of the contract.
func phCheck(t *testing.T, x float64) {
	t.Helper()
	rh, rl, q := reducePiOver2(x)
	k, r := refmath.ReducePiOver2(x)
	wantQ := new(big.Int).And(k, big.NewInt(3)).Uint64() // two's complement
	if q != wantQ {
		t.Errorf("x=%v (%#x): q=%d want %d", x, math.Float64bits(x), q, wantQ)
		return
	}
	if math.Abs(rh) > math.Pi/4*(1+0x1p-40) {
		t.Errorf("x=%v: |rh| = %v > π/4", x, rh)
	}
	if rh != rh+rl || math.Abs(rl) > phULP(rh)/2 {
		t.Errorf("x=%v: rh=%v rl=%v not normalised", x, rh, rl)
	}
	got := new(big.Float).SetPrec(300).SetFloat64(rh)
	got.Add(got, new(big.Float).SetFloat64(rl))
	if r.Sign() == 0 {
		if got.Sign() != 0 {
			t.Errorf("x=%v: r=0, got %v", x, got)
		}
		return
	}
	d := new(big.Float).SetPrec(300).Sub(got, r)
	if d.Sign() == 0 {
		return
	}
	if rel := d.MantExp(nil) - r.MantExp(nil); rel > -100 {
		t.Errorf("x=%v (%#x): rh+rl=%s, want %s (rel err ≈ 2^%d)",
			x, math.Float64bits(x), got.Text('g', 40), r.Text('g', 40), rel)
	}
}

func phULP(f float64) float64 {
	f = math.Abs(f)
	return math.Nextafter(f, math.Inf(1)) - f
}

func TestReducePHTable(t *testing.T) {
	pi := refmath.Pi(2400)
	v := new(big.Float).SetPrec(2400).Quo(big.NewFloat(2), pi)
	n := len(ph2OverPi)
	v.SetMantExp(v, 64*n) // 2/π·2^(64n)
	want, _ := v.Int(nil)
	got := new(big.Int)
	for _, w := range ph2OverPi {
		got.Lsh(got, 64)
		got.Or(got, new(big.Int).SetUint64(w))
	}
	if got.Cmp(want) != 0 {
		t.Fatalf("ph2OverPi differs from 2/π:\n got %x\nwant %x", got, want)
	}
	// The largest exponent needs words up to index 19.
	if n < 20 {
		t.Fatalf("table too short: %d words", n)
	}
}

func TestReducePHConstants(t *testing.T) {
	half := new(big.Float).SetPrec(2400).SetMantExp(refmath.Pi(2400), -1)
	rem := new(big.Float).SetPrec(2400).Set(half)
	for i, c := range []float64{phPiOver2Hi, phPiOver2Mid, phPiOver2Lo} {
		if f, _ := rem.Float64(); f != c {
			t.Errorf("π/2 part %d = %v, want %v", i, c, f)
		}
		rem.Sub(rem, new(big.Float).SetFloat64(c))
	}
	if e := rem.MantExp(nil); e > -159 {
		t.Errorf("π/2 three-part remainder 2^%d", e)
	}
}

func TestReducePHRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1023))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		e := 20 + r.IntN(1023-20+1)
		m := r.Uint64()>>12 | 1<<52
		x := math.Ldexp(float64(m), e-52) // in [2^e, 2^(e+1))
		if r.IntN(2) == 0 {
			x = -x
		}
		phCheck(t, x)
		if t.Failed() {
			return
		}
	}
}

func TestReducePHSmall(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 20))
	for i := 0; i < 5000; i++ {
		e := r.IntN(20)
		m := r.Uint64()>>12 | 1<<52
		x := math.Ldexp(float64(m), e-52) // 1 ≤ |x| < 2^20
		if r.IntN(2) == 0 {
			x = -x
		}
		phCheck(t, x)
		if t.Failed() {
			return
		}
	}
	for _, x := range []float64{0.78, 0.785, 0.7853981633974483, 0.7853981633974484, 0.8, 1, 2, 3, 4, 5, 6, 7,
		math.Nextafter(1, 0), math.Nextafter(0x1p20, 0), 0x1p20, math.Pi, 2 * math.Pi, 0x1p30, 0x1p52 - 1} {
		phCheck(t, x)
		phCheck(t, -x)
	}
	// Below π/4 (k = 0): x itself, exactly.
	for _, x := range []float64{0, 0x1p-1074, 1e-300, 0.5, -0.7} {
		if rh, rl, q := reducePiOver2(x); rh != x || rl != 0 || q != 0 {
			t.Errorf("reducePiOver2(%v) = %v, %v, %v", x, rh, rl, q)
		}
	}
}

func TestReducePHHardCases(t *testing.T) {
	cases := []float64{
		6381956970095103 * 0x1p797, // closest double to a multiple of π/2
		1e22,
		math.MaxFloat64,
		math.Nextafter(math.MaxFloat64, 0),
		0x1p1023,
		0x1p20,
		5.319372648326541e+255,
		// Arbitrary extra values of small and medium size.
		8248253948790141 * 0x1p-2,
		4503599627370495 * 0x1p-48,
	}
	for _, x := range cases {
		phCheck(t, x)
		phCheck(t, -x)
	}
	// The worst case: |r| ≈ 4.7e-19, still exact to 2^-100 relative above.
	rh, _, _ := reducePiOver2(6381956970095103 * 0x1p797)
	if math.Abs(rh) > 1e-18 || rh == 0 {
		t.Errorf("worst case: rh = %v", rh)
	}

	// Neighbours of the float64 nearest to k·π/2.
	halfPi := new(big.Float).SetPrec(2400).SetMantExp(refmath.Pi(2400), -1)
	ks := []*big.Int{}
	for _, k := range []int64{1, 2, 3, 4, 5, 7, 10, 100, 355, 710, 1 << 20, 1<<20 + 1, 123456789, 1 << 40, 1<<53 - 1, 6381956970095103} {
		ks = append(ks, big.NewInt(k))
	}
	for _, e := range []uint{60, 100, 300, 600, 1000, 1022} {
		k := new(big.Int).Lsh(big.NewInt(1), e)
		ks = append(ks, k, new(big.Int).Add(k, big.NewInt(1)), new(big.Int).Sub(k, big.NewInt(3)))
	}
	for _, k := range ks {
		v := new(big.Float).SetPrec(2400).SetInt(k)
		v.Mul(v, halfPi)
		x, _ := v.Float64()
		if math.IsInf(x, 0) {
			continue
		}
		for _, y := range []float64{x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1))} {
			phCheck(t, y)
			phCheck(t, -y)
		}
	}
}

// TestReducePHQuadrantSigns checks q and the sign of r against the reference
// sin and cos: sin x = ±sin r or ±cos r by quadrant.
func TestReducePHQuadrantSigns(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 300; i++ {
		x := math.Ldexp(1+r.Float64(), 20+r.IntN(1000))
		if i%2 == 1 {
			x = -x
		}
		rh, rl, q := reducePiOver2(x)
		s, c := math.Sin(rh), math.Cos(rh)
		_ = rl
		switch q {
		case 1:
			s, c = c, -s
		case 2:
			s, c = -s, -c
		case 3:
			s, c = -c, s
		}
		ws, _ := refmath.Sin(x).Float64()
		wc, _ := refmath.Cos(x).Float64()
		if math.Abs(s-ws) > 1e-15 || math.Abs(c-wc) > 1e-15 {
			t.Errorf("x=%v: sin/cos via reduction %v %v, want %v %v", x, s, c, ws, wc)
		}
	}
}

func TestReducePHNoAlloc(t *testing.T) {
	x := 1e300
	n := testing.AllocsPerRun(100, func() {
		a, b, c := reducePiOver2(x)
		x += a + b + float64(c)*0
	})
	if n != 0 {
		t.Errorf("reducePiOver2 allocates: %v", n)
	}
}

var phSink float64

func BenchmarkReducePiOver2(b *testing.B) {
	xs := make([]float64, 1024)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range xs {
		xs[i] = math.Ldexp(1+r.Float64(), 20+r.IntN(1000))
	}
	b.ResetTimer()
	var s float64
	for i := 0; i < b.N; i++ {
		rh, rl, q := reducePiOver2(xs[i&1023])
		s += rh + rl + float64(q)
	}
	phSink = s
}
