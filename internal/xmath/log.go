// Package xmath holds scalar functions whose results must be the same bits
// on every architecture. Go's math package does not promise that: math.Log
// is assembly on amd64 and Go elsewhere, and the compiler may fuse x*y + z
// into an FMA on arm64 but not on amd64. Learners use these where a value
// ends up in a model file (the boosting step α, the initial score H⁰), so a
// model trained on any machine serialises to the same bytes.
package xmath

import "math"

// Log is the natural logarithm, accurate to < 1 ULP: the FreeBSD
// e_log.c algorithm that Go's pure-Go math.Log uses, with every product
// rounded explicitly (float64(·)) so no compiler may contract it into an FMA.
// Special cases as math.Log: Log(+Inf) = +Inf, Log(0) = −Inf, Log(x < 0) =
// NaN, Log(NaN) = NaN.
func Log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 3fe62e42 fee00000
		ln2Lo = 1.90821492927058770002e-10 // 3dea39ef 35793c76
		l1    = 6.666666666666735130e-01   // 3FE55555 55555593
		l2    = 3.999999999940941908e-01   // 3FD99999 9997FA04
		l3    = 2.857142874366239149e-01   // 3FD24924 94229359
		l4    = 2.222219843214978396e-01   // 3FCC71C5 1D8E78AF
		l5    = 1.818357216161805012e-01   // 3FC74664 96CB03DE
		l6    = 1.531383769920937332e-01   // 3FC39A09 D078C69F
		l7    = 1.479819860511658591e-01   // 3FC2F112 DF3E5244
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}
