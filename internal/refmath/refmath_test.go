package refmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// piDigits is π to 200 decimal places.
const piDigits = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196"

// eDigits is e to 100 decimal places.
const eDigits = "2.7182818284590452353602874713526624977572470936999595749669676277240766303535475945713821785251664274"

func parse(t *testing.T, s string, prec uint) *big.Float {
	t.Helper()
	f, _, err := big.ParseFloat(s, 10, prec, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// relErr returns |a − b| / |b| as a float64.
func relErr(a, b *big.Float) float64 {
	d := new(big.Float).SetPrec(3000).Sub(a, b)
	d.Quo(d, b)
	v, _ := d.Float64()
	return math.Abs(v)
}

// agmPi computes π independently with the Gauss–Legendre iteration.
func agmPi(prec uint) *big.Float {
	nf := func() *big.Float { return new(big.Float).SetPrec(prec) }
	a := nf().SetInt64(1)
	b := nf().Sqrt(nf().SetFloat64(0.5))
	tt := nf().SetFloat64(0.25)
	p := nf().SetInt64(1)
	for i := 0; i < 14; i++ {
		an := nf().Add(a, b)
		an.Quo(an, nf().SetInt64(2))
		b = nf().Sqrt(nf().Mul(a, b))
		d := nf().Sub(a, an)
		d.Mul(d, d)
		d.Mul(d, p)
		tt.Sub(tt, d)
		p.Mul(p, nf().SetInt64(2))
		a = an
	}
	s := nf().Add(a, b)
	s.Mul(s, s)
	return s.Quo(s, nf().Mul(tt, nf().SetInt64(4)))
}

func TestPi(t *testing.T) {
	p := Pi(2400)
	if p.Prec() != 2400 {
		t.Fatalf("prec %d", p.Prec())
	}
	if e := relErr(p, parse(t, piDigits, 700)); e > 1e-199 {
		t.Errorf("Pi vs digits: rel err %g", e)
	}
	ref := agmPi(2500)
	d := new(big.Float).SetPrec(3000).Sub(p, ref)
	if d.Sign() != 0 && d.MantExp(nil) > -2395 {
		t.Errorf("Pi(2400) vs AGM: diff 2^%d", d.MantExp(nil))
	}
	if f, _ := Pi(53).Float64(); f != math.Pi {
		t.Errorf("Pi(53) = %v", f)
	}
	if Pi(100).Prec() != 100 || Pi(0).Prec() != 2400 || Pi(5000).Prec() != 2400 {
		t.Error("Pi precision handling")
	}
	// Copies are independent.
	Pi(64).SetInt64(3)
	if f, _ := Pi(64).Float64(); f != math.Pi {
		t.Error("Pi returned a shared value")
	}
	// ln 2 rounds to the float64 math.Ln2.
	if f, _ := Ln2(53).Float64(); f != math.Ln2 {
		t.Errorf("Ln2(53) = %v", f)
	}
}

func TestExpE(t *testing.T) {
	if e := relErr(Exp(1), parse(t, eDigits, 400)); e > 1e-72 {
		t.Errorf("Exp(1): rel err %g", e)
	}
	// e^-1 · e = 1.
	p := new(big.Float).SetPrec(WorkPrec).Mul(Exp(1), Exp(-1))
	if e := relErr(p, big.NewFloat(1)); e > 1e-72 {
		t.Errorf("Exp(1)·Exp(-1): rel err %g", e)
	}
	// e^(a+b) = e^a·e^b for exact sums, across the whole range.
	for _, c := range [][2]float64{{700, 45}, {-700, -45.5}, {-745, 0.25}, {1000, -1000}, {0x1p-40, 3}, {-1e6, 2e6}} {
		lhs := Exp(c[0] + c[1])
		rhs := new(big.Float).SetPrec(WorkPrec).Mul(Exp(c[0]), Exp(c[1]))
		if e := relErr(lhs, rhs); e > 1e-70 {
			t.Errorf("Exp(%v+%v): rel err %g", c[0], c[1], e)
		}
	}
	// Exp(k·ln2) for integer multiples: exactly 2^k·e^(k·(fl(ln2) − ln2)).
	if f, _ := Exp(0).Float64(); f != 1 {
		t.Errorf("Exp(0) = %v", f)
	}
	if f, _ := Exp(math.Copysign(0, -1)).Float64(); f != 1 {
		t.Errorf("Exp(-0) = %v", f)
	}
	// exp of tiny x: 1 + x + x²/2.
	x := 0x1p-1074
	want := new(big.Float).SetPrec(2000).SetFloat64(x)
	want.Add(want, big.NewFloat(1))
	if e := relErr(Exp(x), want); e > 1e-75 {
		t.Errorf("Exp(tiny): %g", e)
	}
	if e := relErr(Exp(-x), new(big.Float).SetPrec(2000).Sub(big.NewFloat(1), new(big.Float).SetFloat64(x))); e > 1e-75 {
		t.Errorf("Exp(-tiny): %g", e)
	}
	// Limits.
	if !Exp(math.Inf(1)).IsInf() || Exp(math.Inf(-1)).Sign() != 0 || Exp(-math.MaxFloat64).Sign() != 0 {
		t.Error("Exp limits")
	}
	if Exp(1e9).IsInf() || Exp(-1e9).Sign() == 0 {
		t.Error("Exp(±1e9) must be finite and nonzero")
	}
	// Subnormal results: exp(-745) rounds to the smallest subnormal.
	if f, _ := Exp(-745).Float64(); f != 5e-324 {
		t.Errorf("Exp(-745) = %v", f)
	}
	if f, _ := Exp(-746).Float64(); f != 0 {
		t.Errorf("Exp(-746) = %v", f)
	}
	if f, _ := Exp(709.782712893384).Float64(); f != 1.7976931348622732e+308 {
		t.Errorf("Exp(709.78…) = %v", f)
	}
	if f, _ := Exp(709.79).Float64(); !math.IsInf(f, 1) {
		t.Errorf("Exp(709.79) = %v", f)
	}
}

// mathTol is the tolerance against Go's math package. Go's Sin and Cos
// (Cephes) and Exp (the amd64 assembly) are not always within 1 ulp: e.g.
// math.Exp(-671.3314765366936) is 1.15 ulp off and math.Sin(-0.8182437512584384)
// 1.11 ulp off (checked with Python's decimal module). The exactness of the
// references themselves is covered by the digit tests.
const mathTol = 2

// expDigits are e^x for the exact binary value of x, from Python's decimal
// module at 80 digits, with the correctly rounded float64.
var expDigits = []struct {
	x      float64
	digits string
	f      float64
}{
	{-745, "2.82235073047193707635344008205978262082436306291018e-324", 5e-324},
	{-671.3314765366936, "2.78255791388876135350777573401015774684805625870078e-292", 2.7825579138887614e-292},
	{700, "1.01423205473500450945532959523126761520467957224307e+304", 1.0142320547350045e+304},
	{0.5, "1.64872127070012814684865078781416357165377610071015", 1.6487212707001282},
	{-1e-5, "9.99990000049999833332931976807792232470625163773098e-1", 0.9999900000499998},
	{709.782712893384, "1.79769313486227321783964963090004164987288178294317e+308", 1.7976931348622732e+308},
	{-708.3964185322641, "2.22507385850726251792173072917790692015317557359883e-308", 2.2250738585072626e-308},
	{-100.81026072278394, "1.65447438948880018580791762246303704284220778020818e-44", 1.6544743894888002e-44},
}

func TestExpDigits(t *testing.T) {
	for _, c := range expDigits {
		got := Exp(c.x)
		if e := relErr(got, parse(t, c.digits, 300)); e > 1e-49 {
			t.Errorf("Exp(%v): rel err %g", c.x, e)
		}
		if f, _ := got.Float64(); f != c.f {
			t.Errorf("Exp(%v) rounds to %v, want %v", c.x, f, c.f)
		}
		if e := ULPError(c.f, got); e > 0.5 {
			t.Errorf("ULPError(Exp(%v)) = %v", c.x, e)
		}
	}
}

func TestAgainstMath(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		x := (r.Float64()*2 - 1) * 100
		if i%3 == 0 {
			x = (r.Float64()*2 - 1) * 4
		}
		if e := ULPError(math.Cos(x), Cos(x)); e > mathTol {
			t.Errorf("cos(%v): %v ulp", x, e)
		}
		if e := ULPError(math.Sin(x), Sin(x)); e > mathTol {
			t.Errorf("sin(%v): %v ulp", x, e)
		}
		if e := ULPError(math.Exp(x), Exp(x)); e > mathTol {
			t.Errorf("exp(%v): %v ulp", x, e)
		}
	}
	// Whole exp range, including subnormal results.
	for i := 0; i < 1000; i++ {
		x := -745 + r.Float64()*(709.78+745)
		if e := ULPError(math.Exp(x), Exp(x)); e > mathTol {
			t.Errorf("exp(%v): %v ulp", x, e)
		}
	}
	// Pythagoras on large arguments: sin² + cos² = 1.
	for i := 0; i < 200; i++ {
		x := math.Ldexp(1+r.Float64(), r.IntN(1024))
		s, c := Sin(x), Cos(x)
		sum := new(big.Float).SetPrec(WorkPrec).Mul(s, s)
		sum.Add(sum, new(big.Float).SetPrec(WorkPrec).Mul(c, c))
		if e := relErr(sum, big.NewFloat(1)); e > 1e-70 {
			t.Errorf("sin²+cos²(%v) - 1: %g", x, e)
		}
		// Odd/even symmetry.
		if Sin(-x).Cmp(new(big.Float).Neg(s)) != 0 || Cos(-x).Cmp(c) != 0 {
			t.Errorf("symmetry at %v", x)
		}
	}
}

func TestKnownValues(t *testing.T) {
	// sin(fl(π)) = π − fl(π) − (π − fl(π))³/6 + …
	want := parse(t, "1.2246467991473531772260659322750011792314e-16", 300)
	if e := relErr(Sin(math.Pi), want); e > 1e-30 {
		t.Errorf("sin(fl(π)): rel err %g (%s)", e, Sin(math.Pi).Text('g', 40))
	}
	d := new(big.Float).SetPrec(2400).Sub(Pi(0), new(big.Float).SetFloat64(math.Pi))
	d3 := new(big.Float).SetPrec(2400).Mul(d, d)
	d3.Mul(d3, d)
	d3.Quo(d3, big.NewFloat(6))
	d.Sub(d, d3)
	if e := relErr(Sin(math.Pi), d); e > 1e-60 { // next term: d⁴/120 ≈ 2e-66
		t.Errorf("sin(fl(π)) vs series: rel err %g", e)
	}
	// cos(fl(π/2)) = π/2 − fl(π/2) to first order.
	d = new(big.Float).SetPrec(2400).SetMantExp(Pi(0), -1)
	d.Sub(d, new(big.Float).SetFloat64(math.Pi/2))
	if e := relErr(Cos(math.Pi/2), d); e > 1e-30 {
		t.Errorf("cos(fl(π/2)): rel err %g", e)
	}
	// cos and sin of 1e22 (Ng, "Argument reduction for huge arguments").
	// Note that cos(1e22) = 0.52321478539513894549… is closer to
	// 0.523214785395139 than to the often quoted 0.5232147853951389.
	for _, c := range []struct {
		got    *big.Float
		digits string
	}{
		{Cos(1e22), "0.5232147853951389454975944733847094921409"},
		{Sin(1e22), "-0.8522008497671888017727058937530293682618"},
	} {
		if e := relErr(c.got, parse(t, c.digits, 300)); e > 1e-39 {
			t.Errorf("%s: rel err %g", c.digits, e)
		}
	}
	cases := []struct {
		x        float64
		cos, sin float64
	}{
		{1e22, 0.523214785395139, -0.8522008497671888},
		{0, 1, 0},
		{1, 0.5403023058681398, 0.8414709848078965},
		// Kahan/Muller worst case for reduction: r ≈ 4.7e-19.
		{6381956970095103 * 0x1p797, -4.687165924254628e-19, 1},
		{math.MaxFloat64, -0.9999876894265599, 0.004961954789184062},
	}
	for _, c := range cases {
		if f, _ := Cos(c.x).Float64(); f != c.cos {
			t.Errorf("cos(%v) = %v, want %v", c.x, f, c.cos)
		}
		if f, _ := Sin(c.x).Float64(); f != c.sin {
			t.Errorf("sin(%v) = %v, want %v", c.x, f, c.sin)
		}
		if math.Abs(c.x) < 1e200 {
			if e := ULPError(math.Cos(c.x), Cos(c.x)); e > mathTol {
				t.Errorf("math.Cos(%v): %v ulp", c.x, e)
			}
		}
	}
	if s := Sin(math.Copysign(0, -1)); !s.Signbit() || s.Sign() != 0 {
		t.Error("Sin(-0) must be -0")
	}
	if f, _ := Sin(0x1p-1074).Float64(); f != 0x1p-1074 {
		t.Errorf("Sin(tiny) = %v", f)
	}
}

func TestULP(t *testing.T) {
	cases := []struct{ f, u float64 }{
		{1, 0x1p-52},
		{1.5, 0x1p-52},
		{-2, 0x1p-51},
		{math.Nextafter(2, 0), 0x1p-52},
		{0, 0x1p-1074},
		{0x1p-1074, 0x1p-1074},
		{0x1p-1023, 0x1p-1074},
		{0x1p-1022, 0x1p-1074},
		{0x1p-1021, 0x1p-1073},
		{math.MaxFloat64, 0x1p971},
		{math.Inf(-1), math.Inf(1)},
	}
	for _, c := range cases {
		if u := ULP(c.f); u != c.u {
			t.Errorf("ULP(%v) = %v, want %v", c.f, u, c.u)
		}
	}
	if !math.IsNaN(ULP(math.NaN())) {
		t.Error("ULP(NaN)")
	}
}

func pow2(e int) *big.Float {
	return new(big.Float).SetPrec(2000).SetMantExp(big.NewFloat(1), e).SetPrec(2000)
}

func TestULPError(t *testing.T) {
	bf := func(f float64) *big.Float { return new(big.Float).SetPrec(2000).SetFloat64(f) }
	add := func(a *big.Float, f float64) *big.Float { return new(big.Float).SetPrec(2000).Add(a, bf(f)) }
	inf := math.Inf(1)
	cases := []struct {
		name string
		got  float64
		want *big.Float
		e    float64
	}{
		{"exact", 1.5, bf(1.5), 0},
		{"half ulp", 1, add(bf(1), 0x1p-53), 0.5},
		{"eighth ulp", 1, add(bf(1), -0x1p-55), 0.125}, // w = 1, ulp 2^-52
		{"one ulp", math.Nextafter(1, 2), bf(1), 1},
		{"three ulp", -(1 + 3*0x1p-52), bf(-1), 3},
		// want just below 2 rounds to w = 2, so the unit is ulp(2) = 2^-51.
		{"binade edge", math.Nextafter(2, 0), add(bf(2), -0x1p-60), (0x1p-52 - 0x1p-60) / 0x1p-51},
		{"subnormal", 3 * 0x1p-1074, bf(0x1p-1074), 2},
		{"subnormal half", 0, pow2(-1075), 0.5},
		{"zero exact", 0, bf(0), 0},
		{"zero vs tiny", 0x1p-1074, new(big.Float), 1},
		{"tiny want", 0, pow2(-1100), 0x1p-26},
		{"tiny want, got min", 0x1p-1074, pow2(-1100), 1 - 0x1p-26},
		{"min normal", 0x1p-1022, add(bf(0x1p-1022), 0x1p-1074), 1},
		{"overflow inf", inf, Exp(1000), 0},
		{"overflow -inf", -inf, new(big.Float).Neg(Exp(1000)), 0},
		{"overflow wrong inf", -inf, Exp(1000), inf},
		{"overflow finite", math.MaxFloat64, add(bf(math.MaxFloat64), 0x1p971), 1},
		{"want inf, got finite", 1, new(big.Float).SetInf(false), inf},
		{"want inf, got inf", inf, new(big.Float).SetInf(false), 0},
		{"got inf in range", inf, bf(1), inf},
		{"got inf near max", inf, bf(math.MaxFloat64), inf},
		{"NaN", math.NaN(), bf(1), inf},
		{"NaN vs inf", math.NaN(), new(big.Float).SetInf(false), inf},
	}
	for _, c := range cases {
		if e := ULPError(c.got, c.want); e != c.e {
			t.Errorf("%s: ULPError(%v, %s) = %v, want %v", c.name, c.got, c.want.Text('g', 20), e, c.e)
		}
	}
	// Just below the overflow threshold (2^1024 − 2^970) w is MaxFloat64.
	thr := new(big.Float).SetPrec(2000).Sub(pow2(1024), pow2(970))
	below := new(big.Float).SetPrec(2000).Sub(thr, pow2(900))
	if e := ULPError(math.MaxFloat64, below); !(e > 0.49 && e <= 0.5) {
		t.Errorf("below threshold: %v", e)
	}
	if e := ULPError(inf, below); e != inf {
		t.Errorf("below threshold, got Inf: %v", e)
	}
	if e := ULPError(inf, thr); e != 0 {
		t.Errorf("at threshold, got Inf: %v", e)
	}
}

func TestSolve(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 5, 40} {
		a := make([]float64, n*n)
		x := make([]float64, n)
		for i := range a {
			a[i] = r.NormFloat64()
		}
		for i := range x {
			x[i] = r.NormFloat64()
		}
		b := make([]float64, n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				b[i] += a[i*n+j] * x[j]
			}
		}
		got, err := Solve(a, n, b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if math.Abs(got[i]-x[i]) > 1e-9*(1+math.Abs(x[i])) {
				t.Errorf("n=%d: x[%d] = %v, want %v", n, i, got[i], x[i])
			}
		}
	}
	// The pivot swap: a zero leading entry must not stop it.
	if got, err := Solve([]float64{0, 1, 1, 0}, 2, []float64{2, 3}); err != nil || got[0] != 3 || got[1] != 2 {
		t.Errorf("permutation: %v, %v", got, err)
	}
	if _, err := Solve([]float64{1, 2, 2, 4}, 2, []float64{1, 1}); err == nil {
		t.Error("singular matrix: no error")
	}
	if _, err := Solve([]float64{1, 2, 3}, 2, []float64{1, 1}); err == nil {
		t.Error("bad shape: no error")
	}
}
