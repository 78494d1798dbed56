package poly

import (
	"math"
	"math/big"
	"testing"

	"github.com/rfkit/rfkit/internal/refmath"
)

const prec = 600

func f64(x *big.Float) float64 { f, _ := x.Float64(); return f }

// TestSplits recomputes the constants that are defined by π and ln 2.
func TestSplits(t *testing.T) {
	pio2 := refmath.Pi(prec)
	pio2.Quo(pio2, big.NewFloat(2))
	rem := new(big.Float).SetPrec(prec).Set(pio2)
	for i, c := range []float64{PiOver2A, PiOver2B, PiOver2C} {
		if w := f64(rem); w != c {
			t.Errorf("π/2 part %d = %v, want %v", i, c, w)
		}
		rem.Sub(rem, new(big.Float).SetPrec(prec).SetFloat64(c))
	}
	if e, _ := rem.Float64(); math.Abs(e) > 0x1p-158 {
		t.Errorf("π/2 − A − B − C = %g, want below 2^-158", e)
	}
	twoOverPi := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), pio2)
	if w := f64(twoOverPi); w != TwoOverPi {
		t.Errorf("TwoOverPi = %v, want %v", TwoOverPi, w)
	}
	ln2 := refmath.Ln2(prec)
	if math.Float64bits(Ln2Hi)&(1<<21-1) != 0 {
		t.Error("Ln2Hi must have 21 trailing zero bits")
	}
	lo := new(big.Float).SetPrec(prec).Sub(ln2, new(big.Float).SetFloat64(Ln2Hi))
	if w := f64(lo); w != Ln2Lo {
		t.Errorf("Ln2Lo = %v, want %v", Ln2Lo, w)
	}
	if w := f64(new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), ln2)); w != InvLn2 {
		t.Errorf("InvLn2 = %v, want %v", InvLn2, w)
	}
	fact := big.NewFloat(2).SetPrec(prec)
	for i, c := range ExpCoeffs {
		if w := f64(new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), fact)); w != c {
			t.Errorf("ExpCoeffs[%d] = %v, want 1/%d! = %v", i, c, i+2, w)
		}
		fact.Mul(fact, big.NewFloat(float64(i+3)))
	}
}

// TestKernelPolynomials checks the fdlibm coefficients against their
// published decimal values and the approximation error on [−π/4, π/4].
func TestKernelPolynomials(t *testing.T) {
	dec := []float64{-1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04,
		2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10,
		4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05,
		-2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11}
	for i, c := range []float64{S1, S2, S3, S4, S5, S6, C1, C2, C3, C4, C5, C6} {
		if c != dec[i] {
			t.Errorf("coefficient %d = %v, want %v", i, c, dec[i])
		}
	}
	var worstS, worstC float64
	for i := 1; i <= 2000; i++ {
		x := math.Pi / 4 * float64(i) / 2000
		z := new(big.Float).SetPrec(prec).SetFloat64(x)
		z2 := new(big.Float).SetPrec(prec).Mul(z, z)
		// sin: x + x³(S1 + x²(S2 + …))
		p := new(big.Float).SetPrec(prec)
		for _, c := range []float64{S6, S5, S4, S3, S2, S1} {
			p.Mul(p, z2)
			p.Add(p, big.NewFloat(c))
		}
		p.Mul(p, z2)
		p.Mul(p, z)
		p.Add(p, z)
		e := new(big.Float).Sub(p, refmath.Sin(x))
		e.Quo(e, refmath.Sin(x))
		if v, _ := e.Float64(); math.Abs(v) > worstS {
			worstS = math.Abs(v)
		}
		// cos: 1 − x²/2 + x⁴(C1 + x²(C2 + …))
		q := new(big.Float).SetPrec(prec)
		for _, c := range []float64{C6, C5, C4, C3, C2, C1} {
			q.Mul(q, z2)
			q.Add(q, big.NewFloat(c))
		}
		q.Mul(q, z2)
		q.Mul(q, z2)
		q.Sub(q, new(big.Float).Quo(z2, big.NewFloat(2)))
		q.Add(q, big.NewFloat(1))
		e = new(big.Float).Sub(q, refmath.Cos(x))
		if v, _ := e.Float64(); math.Abs(v) > worstC {
			worstC = math.Abs(v)
		}
	}
	if worstS > 0x1p-57 || worstC > 0x1p-57 {
		t.Errorf("polynomial errors: sin %g relative, cos %g absolute; want ≤ 2^-57", worstS, worstC)
	}
}
