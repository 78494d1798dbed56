package scalar

import (
	"math"
	"math/bits"
)

// Payne–Hanek reduction of large arguments modulo π/2.
//
// For x = m·2^e (m a 53-bit integer) only the bits of 2/π from weight 2^(1−e)
// downwards matter for x·2/π mod 4, since m times the earlier bits is a
// multiple of 4. We take a 256-bit window y of 2/π·2^e mod 4 (2 integer bits,
// 254 fraction bits), multiply it by m exactly with integer arithmetic, and
// read the two low bits of the integer part and 192 bits of the fraction. The
// truncation of 2/π costs less than m·2^-254 < 2^-201 absolutely; since no
// float64 lies closer than about 2^-61 to a multiple of π/2 (relatively to
// π/2), the fraction keeps more than 125 correct bits relative.

// ph2OverPi holds the bits of 2/π after the binary point, 64 per word, most
// significant first: ph2OverPi[0] = floor(2/π·2^64). 20 words (1280 bits)
// cover the largest float64 exponent (e = 971, window ending at bit 1225)
// with 309 bits after the binary point of x·2/π.
var ph2OverPi = [20]uint64{
	0xa2f9836e4e441529,
	0xfc2757d1f534ddc0,
	0xdb6295993c439041,
	0xfe5163abdebbc561,
	0xb7246e3a424dd2e0,
	0x06492eea09d1921c,
	0xfe1deb1cb129a73e,
	0xe88235f52ebb4484,
	0xe99c7026b45f7e41,
	0x3991d639835339f4,
	0x9c845f8bbdf9283b,
	0x1ff897ffde05980f,
	0xef2f118b5a0a6d1f,
	0x6d367ecf27cb09b7,
	0x4f463f669e5fea2d,
	0x7527bac7ebe5f17b,
	0x3d0739f78a5292ea,
	0x6bfb5fb11f8d5d08,
	0x56033046fc7b6bab,
	0xf0cfbc209af4361d,
}

// π/2 = phPiOver2Hi + phPiOver2Mid + phPiOver2Lo + O(2^-160), each part the
// float64 nearest to the remainder.
var (
	phPiOver2Hi  = math.Float64frombits(0x3ff921fb54442d18) // 1.5707963267948966
	phPiOver2Mid = math.Float64frombits(0x3c91a62633145c07) // 6.123233995736766e-17
	phPiOver2Lo  = math.Float64frombits(0xb91f1976b7ed8fbc) // -1.4973849048591698e-33
)

// phWord returns word i of the bits of 2/π after the binary point, with
// zeros before the point (i < 0).
func phWord(i int) uint64 {
	if i < 0 {
		return 0
	}
	return ph2OverPi[i]
}

// reducePiOver2 reduces finite x modulo π/2 (Payne–Hanek). With k the integer
// nearest to x·2/π it returns rh + rl = x − k·π/2 (relative error below
// 2^-100, |rl| ≤ ulp(rh)/2, |rh| ≤ π/4·(1+2^-40)) and q = k mod 4 (two's
// complement of k's low bits for negative k). It is meant for |x| ≥ 2^20 but
// is exact for every finite x (|x| < π/4 returns x, 0, 0). NaN and ±Inf are
// the caller's business (the result is meaningless). No allocation; the
// floating-point steps are written with explicit math.FMA and float64(a*b)
// so the result is the same on every architecture.
func reducePiOver2(x float64) (rh, rl float64, q uint64) {
	ax := math.Abs(x)
	if ax < 0.785 { // below π/4: k = 0
		return x, 0, 0
	}
	b := math.Float64bits(ax)
	m := b&(1<<52-1) | 1<<52
	e := int(b>>52) - 1075 // ax = m·2^e, e ≥ −53

	// Window Y = the 256 bits of 2/π starting at bit e−1 (1-based; weight
	// 2^(1−e)), so that m·Y·2^-254 ≡ x·2/π (mod 4) up to the truncation.
	j := e - 2 // 0-based position of that bit
	w := j >> 6
	sh := uint(j & 63)
	var y [4]uint64
	for t := range y {
		// A shift by 64 yields 0 in Go, so sh = 0 needs no special case.
		y[t] = phWord(w+t)<<sh | phWord(w+t+1)>>(64-sh)
	}

	// P = m·Y as five words p0 (most significant) … p4.
	h0, l0 := bits.Mul64(m, y[0])
	h1, l1 := bits.Mul64(m, y[1])
	h2, l2 := bits.Mul64(m, y[2])
	h3, l3 := bits.Mul64(m, y[3])
	p4 := l3
	p3, c := bits.Add64(h3, l2, 0)
	p2, c := bits.Add64(h2, l1, c)
	p1, _ := bits.Add64(h1, l0, c)
	_ = h0 // multiple of 4 in the integer part: irrelevant mod 4

	// Integer part mod 4 is p1>>62; the fraction is the remaining 254 bits,
	// of which we keep 192: f = (f0, f1, f2)·2^-192.
	k := p1 >> 62
	f0 := p1<<2 | p2>>62
	f1 := p2<<2 | p3>>62
	f2 := p3<<2 | p4>>62

	neg := false
	if f0>>63 != 0 { // fraction ≥ ½: round k up, f ← 1 − f, result negative
		k++
		var bw uint64
		f2, bw = bits.Sub64(0, f2, 0)
		f1, bw = bits.Sub64(0, f1, bw)
		f0, _ = bits.Sub64(0, f0, bw)
		neg = true
	}

	// Normalise so that f0 has its top bit set; sc counts the shift.
	sc := 0
	for f0 == 0 {
		if f1 == 0 && f2 == 0 {
			// x is a multiple of π/2 to 192 bits: impossible for a float64
			// with k ≠ 0, kept for safety.
			if x < 0 {
				k = -k
			}
			return 0, 0, k & 3
		}
		f0, f1, f2 = f1, f2, 0
		sc += 64
	}
	if lz := uint(bits.LeadingZeros64(f0)); lz != 0 {
		f0 = f0<<lz | f1>>(64-lz)
		f1 = f1<<lz | f2>>(64-lz)
		sc += int(lz)
	}
	// f = (f0·2^128 + f1·2^64 + …)·2^(-192-sc); split into fh (53 bits,
	// exact) and fl (the next 64 bits, rounded once).
	hi := f0 >> 11
	lo := f0<<53 | f1>>11
	fh := float64(float64(hi) * phPow2(-53-sc))
	fl := float64(float64(lo) * phPow2(-117-sc))

	// (fh + fl)·(π/2) to about 2^-104 relative: the leading product is
	// exact as ph + pe, the cross terms are summed by FMAs.
	ph := float64(fh * phPiOver2Hi)
	pe := math.FMA(fh, phPiOver2Hi, -ph)
	t := math.FMA(fh, phPiOver2Mid, pe)
	t = math.FMA(fl, phPiOver2Hi, t)
	t += math.FMA(fh, phPiOver2Lo, float64(fl*phPiOver2Mid))
	// Fast two-sum (|ph| ≥ |t|): rh + rl = ph + t exactly.
	rh = ph + t
	rl = t - (rh - ph)
	if neg {
		rh, rl = -rh, -rl
	}
	if x < 0 {
		return -rh, -rl, (-k) & 3
	}
	return rh, rl, k & 3
}

// phPow2 returns 2^n for −1022 ≤ n ≤ 1023.
func phPow2(n int) float64 {
	return math.Float64frombits(uint64(n+1023) << 52)
}
