// Package refmath computes high-precision reference values for accuracy tests.
//
// Every function treats its float64 argument as the exact real number it
// represents and returns the mathematical result as a *big.Float carrying far
// more correct bits than a float64 (at least 120 correct bits; in practice
// about 240). The package is slow by design and meant only for tests.
package refmath

import (
	"math"
	"math/big"
	"sync"
)

// piPrec is the number of bits to which π is computed and cached. Reducing the
// largest float64 (< 2^1024) modulo π/2 with ~256 bits left after the
// cancellation needs about 1024+256+64 bits; 2400 leaves a wide margin.
const piPrec = 2400

// WorkPrec is the precision (in bits) of the values returned by Cos, Sin and
// Exp.
const WorkPrec = 256

// taylorPrec is the working precision of the Taylor series.
const taylorPrec = WorkPrec + 64

var (
	piOnce    sync.Once
	piVal     *big.Float // π to piPrec bits
	halfPiVal *big.Float // π/2
	twoOverPi *big.Float // 2/π
	ln2Val    *big.Float // ln 2 to piPrec bits
)

// fixedAtanInv returns atan(1/n)·2^scale truncated, by the alternating series
// Σ (−1)^k / ((2k+1)·n^(2k+1)); if hyperbolic, atanh(1/n) (all terms added).
// The truncation error is below a few units of 2^0 per term.
func fixedAtanInv(n int64, scale uint, hyperbolic bool) *big.Int {
	one := new(big.Int).Lsh(big.NewInt(1), scale)
	nn := big.NewInt(n * n)
	power := new(big.Int).Quo(one, big.NewInt(n)) // 2^scale / n^(2k+1)
	sum := new(big.Int).Set(power)
	term := new(big.Int)
	for k := int64(1); power.Sign() != 0; k++ {
		power.Quo(power, nn)
		term.Quo(power, big.NewInt(2*k+1))
		if k%2 == 1 && !hyperbolic {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
	return sum
}

func initConsts() {
	const guard = 64
	scale := uint(piPrec + guard)
	// Machin: π = 16·atan(1/5) − 4·atan(1/239).
	p := new(big.Int).Mul(fixedAtanInv(5, scale, false), big.NewInt(16))
	p.Sub(p, new(big.Int).Mul(fixedAtanInv(239, scale, false), big.NewInt(4)))
	piVal = new(big.Float).SetPrec(piPrec).SetMantExp(new(big.Float).SetPrec(piPrec).SetInt(p), -int(scale))
	halfPiVal = new(big.Float).SetPrec(piPrec).SetMantExp(piVal, -1)
	twoOverPi = new(big.Float).SetPrec(piPrec).Quo(big.NewFloat(2), piVal)
	// ln 2 = 2·atanh(1/3).
	l := new(big.Int).Lsh(fixedAtanInv(3, scale, true), 1)
	ln2Val = new(big.Float).SetPrec(piPrec).SetMantExp(new(big.Float).SetPrec(piPrec).SetInt(l), -int(scale))
}

func consts() { piOnce.Do(initConsts) }

// Pi returns π rounded to nearest at precision prec bits (prec is capped at
// 2400, the precision of the cached value; prec 0 means 2400).
func Pi(prec uint) *big.Float {
	consts()
	if prec == 0 || prec > piPrec {
		prec = piPrec
	}
	return new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).Set(piVal)
}

// Ln2 returns ln 2 rounded to nearest at precision prec bits (capped at 2400;
// 0 means 2400).
func Ln2(prec uint) *big.Float {
	consts()
	if prec == 0 || prec > piPrec {
		prec = piPrec
	}
	return new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).Set(ln2Val)
}

// ReducePiOver2 returns the integer k nearest to x·2/π and r = x − k·π/2
// (|r| ≤ π/4) for finite x. r is accurate to about 2400−1024−64 bits
// absolute, far more than WorkPrec bits relative for every float64 x
// (|r| > 2^-62 whenever k ≠ 0). It panics on NaN or ±Inf.
func ReducePiOver2(x float64) (k *big.Int, r *big.Float) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		panic("refmath: ReducePiOver2 of non-finite value")
	}
	consts()
	const prec = piPrec
	xf := new(big.Float).SetPrec(prec).SetFloat64(x)
	t := new(big.Float).SetPrec(prec).Mul(xf, twoOverPi)
	k, _ = t.Int(nil) // truncated toward zero
	frac := new(big.Float).SetPrec(prec).Sub(t, new(big.Float).SetPrec(prec).SetInt(k))
	half := big.NewFloat(0.5)
	if frac.Cmp(half) > 0 {
		k.Add(k, big.NewInt(1))
	} else if frac.Cmp(new(big.Float).Neg(half)) < 0 {
		k.Sub(k, big.NewInt(1))
	}
	prod := new(big.Float).SetPrec(prec).SetInt(k)
	prod.Mul(prod, halfPiVal)
	r = new(big.Float).SetPrec(prec).Sub(xf, prod)
	return k, r
}

// quadrant returns k mod 4 in [0, 3] (Euclidean, so also for negative k).
func quadrant(k *big.Int) int {
	return int(new(big.Int).Mod(k, big.NewInt(4)).Int64())
}

// sinTaylor returns sin(r) for |r| ≤ 1 at taylorPrec bits.
func sinTaylor(r *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(taylorPrec).Set(r)
	if r.Sign() == 0 {
		return sum
	}
	r2 := new(big.Float).SetPrec(taylorPrec).Mul(r, r)
	term := new(big.Float).SetPrec(taylorPrec).Set(r)
	div := new(big.Float).SetPrec(taylorPrec)
	for n := int64(1); ; n++ {
		term.Mul(term, r2)
		term.Quo(term, div.SetInt64((2*n)*(2*n+1)))
		term.Neg(term)
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-taylorPrec-8 {
			return sum
		}
	}
}

// cosTaylor returns cos(r) for |r| ≤ 1 at taylorPrec bits.
func cosTaylor(r *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(taylorPrec).SetInt64(1)
	if r.Sign() == 0 {
		return sum
	}
	r2 := new(big.Float).SetPrec(taylorPrec).Mul(r, r)
	term := new(big.Float).SetPrec(taylorPrec).SetInt64(1)
	div := new(big.Float).SetPrec(taylorPrec)
	for n := int64(1); ; n++ {
		term.Mul(term, r2)
		term.Quo(term, div.SetInt64((2*n-1)*(2*n)))
		term.Neg(term)
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-taylorPrec-8 {
			return sum
		}
	}
}

func round(f *big.Float) *big.Float {
	return new(big.Float).SetPrec(WorkPrec).SetMode(big.ToNearestEven).Set(f)
}

// Cos returns cos(x) for the exact value of x, at WorkPrec bits (≥ 240
// correct bits). It panics on NaN or ±Inf.
func Cos(x float64) *big.Float {
	k, r := ReducePiOver2(x)
	var v *big.Float
	switch quadrant(k) {
	case 0:
		v = cosTaylor(r)
	case 1:
		v = sinTaylor(r)
		v.Neg(v)
	case 2:
		v = cosTaylor(r)
		v.Neg(v)
	default:
		v = sinTaylor(r)
	}
	return round(v)
}

// Sin returns sin(x) for the exact value of x, at WorkPrec bits (≥ 240
// correct bits). Sin(±0) is ±0. It panics on NaN or ±Inf.
func Sin(x float64) *big.Float {
	if x == 0 {
		return new(big.Float).SetPrec(WorkPrec).SetFloat64(x)
	}
	k, r := ReducePiOver2(x)
	var v *big.Float
	switch quadrant(k) {
	case 0:
		v = sinTaylor(r)
	case 1:
		v = cosTaylor(r)
	case 2:
		v = sinTaylor(r)
		v.Neg(v)
	default:
		v = cosTaylor(r)
		v.Neg(v)
	}
	return round(v)
}

// ExpMaxArg bounds the arguments for which Exp returns a finite value:
// exp(x) for x > ExpMaxArg is returned as +Inf and for x < −ExpMaxArg as +0,
// because the result's binary exponent would leave big.Float's int32 range.
// Both limits are far outside the float64 range of exp (≈ ±745).
const ExpMaxArg = 1.4e9

// Exp returns e^x for the exact value of x, at WorkPrec bits (≥ 240 correct
// bits relative, including results far outside the float64 range such as
// exp(1000) or exp(−1000)). See ExpMaxArg for the limits. It panics on NaN;
// Exp(+Inf) is +Inf and Exp(−Inf) is +0.
func Exp(x float64) *big.Float {
	switch {
	case math.IsNaN(x):
		panic("refmath: Exp(NaN)")
	case x > ExpMaxArg:
		return new(big.Float).SetPrec(WorkPrec).SetInf(false)
	case x < -ExpMaxArg:
		return new(big.Float).SetPrec(WorkPrec)
	}
	consts()
	// x = k·ln2 + r with |r| ≲ ln2/2. k needs not be the exact nearest.
	k := int64(math.Round(x / math.Ln2))
	const prec = 1200
	r := new(big.Float).SetPrec(prec).SetFloat64(x)
	if k != 0 {
		kl := new(big.Float).SetPrec(prec).SetInt64(k)
		kl.Mul(kl, ln2Val)
		r.Sub(r, kl)
	}
	// Taylor series of e^r.
	sum := new(big.Float).SetPrec(taylorPrec).SetInt64(1)
	term := new(big.Float).SetPrec(taylorPrec).SetInt64(1)
	div := new(big.Float).SetPrec(taylorPrec)
	rr := new(big.Float).SetPrec(taylorPrec).Set(r)
	if rr.Sign() != 0 {
		for n := int64(1); ; n++ {
			term.Mul(term, rr)
			term.Quo(term, div.SetInt64(n))
			sum.Add(sum, term)
			if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-taylorPrec-8 {
				break
			}
		}
	}
	sum.SetMantExp(sum, int(k))
	return round(sum)
}

// ULP returns the spacing of float64 values at f: for 2^e ≤ |f| < 2^(e+1)
// with e ≥ −1022 it is 2^(e−52); for |f| < 2^-1022 (subnormals and zero) it
// is 2^-1074. ULP(±Inf) is +Inf and ULP(NaN) is NaN.
func ULP(f float64) float64 {
	switch {
	case math.IsNaN(f):
		return f
	case math.IsInf(f, 0):
		return math.Inf(1)
	}
	f = math.Abs(f)
	if f < 0x1p-1022 {
		return 0x1p-1074
	}
	e := int(math.Float64bits(f)>>52) - 1023
	return math.Ldexp(1, e-52)
}

// ULPError returns |got − want| in units of ULP(w), where w is want rounded to
// the nearest float64 (ties to even): for a result whose nearest float64 is
// normal that is the spacing of the binade of w, and in the subnormal/zero
// region it is 2^-1074. Hence a correctly rounded got gives ≤ 0.5, and the
// value is computed from the exact difference (not from float64 arithmetic).
//
// Special cases:
//   - got NaN: +Inf.
//   - want beyond the float64 range (w = ±Inf, i.e. |want| ≥ 2^1024 − 2^970,
//     including want = ±Inf): 0 if got is the Inf of the same sign, +Inf if
//     got is the opposite Inf, and otherwise |got − want| / 2^971 (the ulp of
//     MaxFloat64), which is at least 0.5.
//   - got ±Inf while w is finite: +Inf.
//
// want = ±0 is allowed and gives |got| / 2^-1074.
func ULPError(got float64, want *big.Float) float64 {
	if math.IsNaN(got) {
		return math.Inf(1)
	}
	w, _ := want.Float64()
	if math.IsInf(w, 0) {
		if math.IsInf(got, 0) {
			if (got > 0) == (w > 0) {
				return 0
			}
			return math.Inf(1)
		}
		if want.IsInf() {
			return math.Inf(1)
		}
		w = math.Copysign(math.MaxFloat64, w)
	} else if math.IsInf(got, 0) {
		return math.Inf(1)
	}
	u := ULP(w)
	prec := want.Prec() + 64
	if prec < 2200 {
		prec = 2200 // got and want can be 2^2100 apart in magnitude
	}
	d := new(big.Float).SetPrec(prec).SetFloat64(got)
	d.Sub(d, want)
	d.Abs(d)
	d.Quo(d, new(big.Float).SetFloat64(u))
	e, _ := d.Float64()
	return e
}
