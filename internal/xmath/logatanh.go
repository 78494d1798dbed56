package xmath

import "math"

// LogAtanh returns the natural logarithm of a positive finite x within a
// few ULP, with the same bits on every architecture. With x = m·2^e and
// m ∈ [1/√2, √2), ln m = 2·atanh(s) with s = (m−1)/(m+1), |s| ≤ 0.1716,
// summed as its odd Taylor series up to s²³ (truncation < 1e-18 relative).
//
// It is the logarithm of the Box–Muller draws of internal/xrand and of the
// SE2 targets of dataset/synth, whose golden streams depend on its exact
// bits: do not change it. New code should use Log (< 1 ULP).
func LogAtanh(x float64) float64 {
	// Cody–Waite split of ln 2: ln2Hi has 32 significant bits, so e·ln2Hi
	// is exact for any binary exponent e.
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
	)
	m, e := math.Frexp(x) // x = m·2^e, m ∈ [½, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	s := (m - 1) / (m + 1)
	s2 := s * s
	p := 1.0 / 23
	for k := 21.0; k >= 1; k -= 2 {
		p = float64(p*s2) + 1/k
	}
	fe := float64(e)
	return float64(fe*ln2Hi) + (float64(fe*ln2Lo) + float64(2*s*p))
}
