package scalar

import (
	"math"

	"github.com/rfkit/rfkit/internal/poly"
)

// Exp is the scalar twin of one lane of asm.Exp; asm/exp_amd64.s and
// asm/exp_arm64.s do exactly these operations.
func Exp(x float64) float64 {
	// Clamp (NaN passes through: both comparisons are false).
	if x > poly.ExpMaxArg {
		x = poly.ExpMaxArg
	}
	if x < poly.ExpMinArg {
		x = poly.ExpMinArg
	}
	kf := math.FMA(x, poly.InvLn2, poly.RoundShift)
	k := kf - poly.RoundShift
	hi := math.FMA(-k, poly.Ln2Hi, x) // exact
	r := math.FMA(-k, poly.Ln2Lo, hi)
	dr := math.FMA(-k, poly.Ln2Lo, hi-r) // the rounding error of r
	c := &poly.ExpCoeffs
	p := math.FMA(c[11], r, c[10])
	for i := 9; i >= 0; i-- {
		p = math.FMA(p, r, c[i])
	}
	// exp(r+dr) ≈ 1 + r + (r²·P(r) + dr): 1 + r is split exactly into s + es
	// (Fast2Sum, |r| < 1), so only the last addition rounds at full weight.
	t := math.FMA(float64(r*r), p, dr)
	s := 1 + r
	es := (1 - s) + r
	e := s + (t + es)
	// 2^k = 2^k1 · 2^k2 with both factors normal, so e·2^k1 is exact and the
	// only rounding is the last one (correct for subnormal results too).
	k1 := math.FMA(k, 0.5, poly.RoundShift) - poly.RoundShift
	k2 := k - k1
	s1 := math.Float64frombits(math.Float64bits(k1+poly.ExpBiasShift) << 52)
	s2 := math.Float64frombits(math.Float64bits(k2+poly.ExpBiasShift) << 52)
	return float64(e*s1) * s2
}
