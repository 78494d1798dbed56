// Package poly holds the numerical constants of rfkit's elementwise kernels:
// polynomial coefficients, Cody–Waite splits of π/2 and ln 2, rounding shifts
// and domain thresholds. The pure-Go twins in package asm and the assembly
// generators in internal/gen both read them from here, so the two can never
// disagree. Every value is checked against a math/big computation in
// poly_test.go.
package poly

import "math"

// Rounding by the "magic shift": for |v| < 2^51, (v + RoundShift) − RoundShift
// rounds v to the nearest integer (ties to even) in one addition, and the low
// mantissa bits of v + RoundShift hold that integer in two's complement.
const RoundShift = 0x1.8p52

// Trigonometric range reduction x = k·π/2 + r, |r| ≤ π/4.
var (
	TwoOverPi = math.Float64frombits(0x3fe45f306dc9c883) // 2/π rounded

	// π/2 = PiOver2A + PiOver2B + PiOver2C + O(2^-160): each part is the
	// float64 nearest to what the previous parts leave.
	PiOver2A = math.Float64frombits(0x3ff921fb54442d18)
	PiOver2B = math.Float64frombits(0x3c91a62633145c07)
	PiOver2C = math.Float64frombits(0xb91f1976b7ed8fbc)
)

// TrigFastMax bounds the vector domain of cos and sin: lanes with
// |x| ≤ TrigFastMax use the three-part FMA Cody–Waite reduction (exact first
// step, TwoSum second step, so r is a double-double good to ≈2^-130 absolute);
// other lanes, and NaN/±Inf, take the scalar Payne–Hanek path.
const TrigFastMax = 0x1p30

// Sine kernel on [−π/4, π/4]: sin(x) ≈ x + S1·x³ + … + S6·x¹³, relative
// approximation error below 2^-58 (the classic fdlibm __kernel_sin minimax
// coefficients).
var (
	S1 = math.Float64frombits(0xbfc5555555555549) // -1.66666666666666324348e-01
	S2 = math.Float64frombits(0x3f8111111110f8a6) //  8.33333333332248946124e-03
	S3 = math.Float64frombits(0xbf2a01a019c161d5) // -1.98412698298579493134e-04
	S4 = math.Float64frombits(0x3ec71de357b1fe7d) //  2.75573137070700676789e-06
	S5 = math.Float64frombits(0xbe5ae5e68a2b9ceb) // -2.50507602534068634195e-08
	S6 = math.Float64frombits(0x3de5d93a5acfd57c) //  1.58969099521155010221e-10
)

// Cosine kernel on [−π/4, π/4]: cos(x) ≈ 1 − x²/2 + C1·x⁴ + … + C6·x¹⁴,
// absolute approximation error below 2^-58 (fdlibm __kernel_cos).
var (
	C1 = math.Float64frombits(0x3fa555555555554c) //  4.16666666666666019037e-02
	C2 = math.Float64frombits(0xbf56c16c16c15177) // -1.38888888888741095749e-03
	C3 = math.Float64frombits(0x3efa01a019cb1590) //  2.48015872894767294178e-05
	C4 = math.Float64frombits(0xbe927e4f809c52ad) // -2.75573143513906633035e-07
	C5 = math.Float64frombits(0x3e21ee9ebdb4b1c4) //  2.08757232129817482790e-09
	C6 = math.Float64frombits(0xbda8fae9be8838d4) // -1.13596475577881948265e-11
)

// Exponential: x = k·ln2 + r, |r| ≤ ln2/2, exp(x) = 2^k · exp(r).
var (
	InvLn2 = math.Float64frombits(0x3ff71547652b82fe) // 1/ln 2 rounded
	// Ln2Hi has 32 significant bits (21 trailing zeros), so k·Ln2Hi is exact
	// for |k| < 2^21.
	Ln2Hi = math.Float64frombits(0x3fe62e42fee00000)
	Ln2Lo = math.Float64frombits(0x3dea39ef35793c76) // ln 2 − Ln2Hi rounded
)

// ExpCoeffs[i] = 1/(i+2)! rounded, i = 0 … 11: exp(r) = 1 + r + r²·P(r) with
// P(r) = Σ ExpCoeffs[i]·r^i. The Taylor remainder r^14/14! is below 2^-57 of
// the result on |r| ≤ ln2/2.
var ExpCoeffs = [12]float64{
	math.Float64frombits(0x3fe0000000000000), // 1/2!
	math.Float64frombits(0x3fc5555555555555), // 1/3!
	math.Float64frombits(0x3fa5555555555555), // 1/4!
	math.Float64frombits(0x3f81111111111111), // 1/5!
	math.Float64frombits(0x3f56c16c16c16c17), // 1/6!
	math.Float64frombits(0x3f2a01a01a01a01a), // 1/7!
	math.Float64frombits(0x3efa01a01a01a01a), // 1/8!
	math.Float64frombits(0x3ec71de3a556c734), // 1/9!
	math.Float64frombits(0x3e927e4fb7789f5c), // 1/10!
	math.Float64frombits(0x3e5ae64567f544e4), // 1/11!
	math.Float64frombits(0x3e21eed8eff8d898), // 1/12!
	math.Float64frombits(0x3de6124613a86d09), // 1/13!
}

// Exp clamps its argument to [ExpMinArg, ExpMaxArg] before reducing it; the
// clamp cannot change a result: exp(710) overflows to +Inf and exp(−746)
// rounds to 0, and with k ≤ 1025 both halves of the two-step scaling
// 2^k = 2^k1·2^k2 stay normal.
const (
	ExpMaxArg = 710.0
	ExpMinArg = -746.0
)

// ExpLossMax bounds the exponent of every exp-loss term, exp(±ExpLossMax):
// a documented safeguard that keeps each term (≈ 1e304) and its gradient
// finite when the boosting weights grow without limit.
const ExpLossMax = 700.0

// ExpBiasShift is RoundShift + 1023: the low 11 bits of v + ExpBiasShift are the
// biased exponent field of 2^v for an integer v in [−1022, 1023].
const ExpBiasShift = RoundShift + 1023
