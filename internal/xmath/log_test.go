package xmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigLog is ln x to 200 bits by Newton on exp (x > 0).
func bigLog(x float64) *big.Float {
	const prec = 200
	// ln x = e·ln 2 + ln m with m in [1, 2): series atanh for ln m.
	m, e := math.Frexp(x)
	mf := new(big.Float).SetPrec(prec).SetFloat64(m)
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	// z = (m−1)/(m+1), ln m = 2 Σ z^(2j+1)/(2j+1)
	z := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Sub(mf, one), new(big.Float).SetPrec(prec).Add(mf, one))
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	sum := new(big.Float).SetPrec(prec)
	term := new(big.Float).SetPrec(prec).Set(z)
	for j := 0; j < 200; j++ {
		t := new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(2*j+1)))
		sum.Add(sum, t)
		term.Mul(term, z2)
	}
	sum.Mul(sum, new(big.Float).SetPrec(prec).SetInt64(2))
	// ln 2 = 2 atanh(1/3)
	third := new(big.Float).SetPrec(prec).Quo(one, new(big.Float).SetPrec(prec).SetInt64(3))
	t2 := new(big.Float).SetPrec(prec).Mul(third, third)
	ln2 := new(big.Float).SetPrec(prec)
	term = new(big.Float).SetPrec(prec).Set(third)
	for j := 0; j < 200; j++ {
		ln2.Add(ln2, new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(2*j+1))))
		term.Mul(term, t2)
	}
	ln2.Mul(ln2, new(big.Float).SetPrec(prec).SetInt64(2))
	ln2.Mul(ln2, new(big.Float).SetPrec(prec).SetInt64(int64(e)))
	return sum.Add(sum, ln2)
}

// TestLogAccuracy: below one ULP against a 200-bit reference.
func TestLogAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var worst float64
	for i := 0; i < 3000; i++ {
		x := math.Exp((r.Float64()*2 - 1) * 700)
		if i%3 == 0 {
			x = 1 + (r.Float64()-0.5)*0.1
		}
		got := Log(x)
		want := bigLog(x)
		wf, _ := want.Float64()
		ulp := math.Abs(math.Nextafter(wf, math.Inf(1)) - wf)
		diff := new(big.Float).Sub(new(big.Float).SetFloat64(got), want)
		d, _ := diff.Float64()
		if e := math.Abs(d) / ulp; e > worst {
			worst = e
		}
	}
	if worst >= 1 {
		t.Fatalf("max error %.3f ULP", worst)
	}
	t.Logf("max error %.3f ULP", worst)
}

func TestLogSpecial(t *testing.T) {
	if !math.IsNaN(Log(-1)) || !math.IsNaN(Log(math.NaN())) || !math.IsInf(Log(0), -1) || !math.IsInf(Log(math.Inf(1)), 1) || Log(1) != 0 {
		t.Fatal("special cases")
	}
}
