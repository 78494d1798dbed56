package xmath

import "math"

// Log1p is ln(1 + x), accurate to < 1 ULP: the FreeBSD s_log1p.c algorithm
// that Go's pure-Go math.Log1p uses (every architecture but s390x), with
// every product rounded explicitly (float64(·)) so no compiler may contract
// it into an FMA. On amd64, which never fuses, it returns math.Log1p's bits.
// Special cases as math.Log1p: Log1p(+Inf) = +Inf, Log1p(±0) = ±0,
// Log1p(−1) = −Inf, Log1p(x < −1) = NaN, Log1p(NaN) = NaN.
func Log1p(x float64) float64 {
	const (
		sqrt2M1     = 4.142135623730950488017e-01  // Sqrt(2)-1 = 0x3fda827999fcef34
		sqrt2HalfM1 = -2.928932188134524755992e-01 // Sqrt(2)/2-1 = 0xbfd2bec333018866
		small       = 1.0 / (1 << 29)              // 2**-29 = 0x3e20000000000000
		tiny        = 1.0 / (1 << 54)              // 2**-54
		two53       = 1 << 53                      // 2**53
		ln2Hi       = 6.93147180369123816490e-01   // 3fe62e42fee00000
		ln2Lo       = 1.90821492927058770002e-10   // 3dea39ef35793c76
		lp1         = 6.666666666666735130e-01     // 3FE5555555555593
		lp2         = 3.999999999940941908e-01     // 3FD999999997FA04
		lp3         = 2.857142874366239149e-01     // 3FD2492494229359
		lp4         = 2.222219843214978396e-01     // 3FCC71C51D8E78AF
		lp5         = 1.818357216161805012e-01     // 3FC7466496CB03DE
		lp6         = 1.531383769920937332e-01     // 3FC39A09D078C69F
		lp7         = 1.479819860511658591e-01     // 3FC2F112DF3E5244
	)

	switch {
	case x < -1 || math.IsNaN(x): // includes −Inf
		return math.NaN()
	case x == -1:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return math.Inf(1)
	}

	absx := math.Abs(x)

	var f float64
	var iu uint64
	k := 1
	if absx < sqrt2M1 { // |x| < √2−1
		if absx < small { // |x| < 2⁻²⁹
			if absx < tiny { // |x| < 2⁻⁵⁴
				return x
			}
			return x - float64(float64(x*x)*0.5)
		}
		if x > sqrt2HalfM1 { // √2/2−1 < x < √2−1
			k = 0
			f = x
			iu = 1
		}
	}
	var c float64
	if k != 0 {
		var u float64
		if absx < two53 {
			u = 1.0 + x
			iu = math.Float64bits(u)
			k = int((iu >> 52) - 1023)
			// correction term
			if k > 0 {
				c = 1.0 - (u - x)
			} else {
				c = x - (u - 1.0)
			}
			c /= u
		} else {
			u = x
			iu = math.Float64bits(u)
			k = int((iu >> 52) - 1023)
			c = 0
		}
		iu &= 0x000fffffffffffff
		if iu < 0x0006a09e667f3bcd { // mantissa of √2
			u = math.Float64frombits(iu | 0x3ff0000000000000) // normalise u
		} else {
			k++
			u = math.Float64frombits(iu | 0x3fe0000000000000) // normalise u/2
			iu = (0x0010000000000000 - iu) >> 2
		}
		f = u - 1.0 // √2/2 < u < √2
	}
	fk := float64(k)
	hfsq := float64(float64(0.5*f) * f)
	if iu == 0 { // |f| < 2⁻²⁰
		if f == 0 {
			if k == 0 {
				return 0
			}
			c += float64(fk * ln2Lo)
			return float64(fk*ln2Hi) + c
		}
		R := float64(hfsq * (1.0 - float64(0.66666666666666666*f))) // avoid division
		if k == 0 {
			return f - R
		}
		return float64(fk*ln2Hi) - ((R - (float64(fk*ln2Lo) + c)) - f)
	}
	s := f / (2.0 + f)
	z := float64(s * s)
	p := lp6 + float64(z*lp7)
	p = lp5 + float64(z*p)
	p = lp4 + float64(z*p)
	p = lp3 + float64(z*p)
	p = lp2 + float64(z*p)
	p = lp1 + float64(z*p)
	R := float64(z * p)
	if k == 0 {
		return f - (hfsq - float64(s*(hfsq+R)))
	}
	return float64(fk*ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + (float64(fk*ln2Lo) + c))) - f)
}
