// Package exactsum adds float64 values exactly: every value goes into a
// fixed-point number wide enough for the whole float64 range, so a sum does
// not depend on the order or the grouping of its terms, and the result is
// the exact sum rounded once (to nearest, ties to even).
//
// rfkit uses it where a sum over rows must come out with the same bits on
// one machine and on many (package github.com/rfkit/rfkit/beam): rows are
// summed in float64, in row order, within blocks of Block rows, and the
// block sums are added exactly. Whatever worker computes a block, the total
// is the same.
package exactsum

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Block is the number of consecutive rows (0..Block−1, Block..2·Block−1, …
// of the data) that blocked sums add in float64, in row order, before the
// block's sum enters the exact sum. Changing it changes the bits of every
// blocked sum over more than Block rows (and the golden files).
const Block = 1024

// bins is the number of 32-bit bins of an exact sum: a float64 is
// m·2^(e−1075) with a 53-bit m and 1 ≤ e ≤ 2046, so its bits lie at
// positions 0 to 2098 of a fixed-point number with 2^−1074 as its unit:
// 66 bins, plus one for carries.
const bins = 67

// limit is the number of additions a bin absorbs before its carries must
// be propagated: each adds less than 2^32 in magnitude to an int64.
var limit = 1 << 30 // a variable so that tests can propagate often

// Vec is a vector of exact sums of float64 values. Adding costs a few
// integer operations per value; Merge adds two vectors. The zero Vec has
// no sums: use New.
type Vec struct {
	bins []int64 // len Len()·bins; bin k of sum i at i·bins + k
	adds int     // additions per sum since the carries were propagated
}

// New returns n sums, all 0.
func New(n int) *Vec { return &Vec{bins: make([]int64, n*bins)} }

// Len is the number of sums.
func (v *Vec) Len() int { return len(v.bins) / bins }

// Add adds x to sum i. x must be finite (NaN and ±Inf are not checked and
// give a meaningless sum). Callers call Step after adding at most one value
// to every sum.
func (v *Vec) Add(i int, x float64) {
	addBins(v.bins[i*bins:(i+1)*bins], 0, x)
}

// split returns x as ±m·2^(p−1074), m < 2^53, and whether x is negative;
// m = 0 for ±0.
func split(x float64) (m uint64, p int, neg bool) {
	u := math.Float64bits(x)
	e := int(u>>52) & 0x7ff
	m = u & (1<<52 - 1)
	if e == 0 {
		e = 1
	} else {
		m |= 1 << 52
	}
	return m, e - 1, u>>63 != 0
}

// addBins adds x to the fixed-point number b (bins of 32 bits, b[0] the
// bin k0); x's bins must lie in b.
func addBins(b []int64, k0 int, x float64) {
	m, p, neg := split(x)
	if m == 0 {
		return
	}
	k, s := p>>5-k0, uint(p&31)
	lo := int64((m << s) & 0xffffffff)
	mid := int64((m >> (32 - s)) & 0xffffffff)
	hi := int64(m >> (64 - s)) // 0 when s = 0
	b = b[k : k+3]
	if neg {
		b[0] -= lo
		b[1] -= mid
		b[2] -= hi
	} else {
		b[0] += lo
		b[1] += mid
		b[2] += hi
	}
}

// AddSlice adds xs[i] to sum off+i for every i, and counts one Step.
func (v *Vec) AddSlice(off int, xs []float64) {
	for i, x := range xs {
		v.Add(off+i, x)
	}
	v.Step()
}

// Step counts one addition to every sum, propagating the carries when due.
func (v *Vec) Step() {
	if v.adds++; v.adds >= limit {
		v.normalize()
	}
}

// normalize propagates the carries: every bin but the last in [0, 2^32).
func (v *Vec) normalize() {
	for i := range v.Len() {
		carry(v.bins[i*bins : (i+1)*bins])
	}
	v.adds = 0
}

// carry propagates the carries of the fixed-point number b: every bin but
// the last in [0, 2^32).
func carry(b []int64) {
	for k := 0; k < len(b)-1; k++ {
		c := b[k] >> 32
		b[k] -= c << 32
		b[k+1] += c
	}
}

// Merge adds the sums of w to those of v.
func (v *Vec) Merge(w *Vec) error {
	if len(v.bins) != len(w.bins) {
		return fmt.Errorf("exactsum: merging %d sums with %d", v.Len(), w.Len())
	}
	if v.adds+w.adds >= limit {
		v.normalize()
		w.normalize()
	}
	for k, x := range w.bins {
		v.bins[k] += x
	}
	v.adds += w.adds
	return nil
}

// Float returns sum i correctly rounded to float64 (to nearest, ties to
// even); ±Inf when it overflows.
func (v *Vec) Float(i int) float64 {
	var b [bins]int64
	copy(b[:], v.bins[i*bins:(i+1)*bins])
	return round(&b)
}

// round returns the fixed-point number b (bins of 32 bits, unit 2^−1074,
// carries not yet propagated) correctly rounded to float64. It changes b.
func round(b *[bins]int64) float64 {
	carry(b[:])
	neg := b[bins-1] < 0
	if neg {
		for k := range b {
			b[k] = -b[k]
		}
		carry(b[:])
	}
	h := bins - 1
	for h >= 0 && b[h] == 0 {
		h--
	}
	if h < 0 {
		return 0
	}
	sign := 1.0
	if neg {
		sign = -1
	}
	if h == bins-1 { // ≥ 2^(32·66 − 1074) = 2^1038
		return math.Inf(int(sign))
	}
	get := func(k int) uint64 {
		if k < 0 {
			return 0
		}
		return uint64(b[k])
	}
	// The magnitude is (hi·2^64 + lo + a fraction)·2^(32(h−3)) units of
	// 2^−1074, hi ≥ 2^32; sticky says whether the fraction is not 0.
	hi, lo := get(h)<<32|get(h-1), get(h-2)<<32|get(h-3)
	sticky := false
	for k := h - 4; k >= 0; k-- {
		if b[k] != 0 {
			sticky = true
			break
		}
	}
	s := uint(bits.LeadingZeros64(hi))
	m := hi<<s | lo>>(64-s) // lo>>64 is 0 in Go
	if lo<<s != 0 {
		sticky = true
	}
	// The magnitude is m·2^e2 (plus less than one unit of m), m in [2^63, 2^64).
	e2 := 64 - int(s) + 32*(h-3) - 1074
	shift := 11 // 64 − 53 bits
	if ex := 63 + e2; ex < -1022 {
		shift += -1022 - ex // a subnormal keeps fewer bits
	}
	if shift > 64 {
		return sign * 0 // below half the smallest subnormal (m < 2^64 ≤ 2^(shift−1))
	}
	var mant, rem, half uint64
	if shift == 64 {
		mant, rem, half = 0, m, 1<<63
	} else {
		mant, rem, half = m>>shift, m&(1<<shift-1), 1<<(shift-1)
	}
	if rem > half || (rem == half && (sticky || mant&1 == 1)) {
		mant++
	}
	return sign * math.Ldexp(float64(mant), e2+shift)
}

// Floats writes every sum, rounded as Float, to dst (len Len()).
func (v *Vec) Floats(dst []float64) {
	for i := range dst[:v.Len()] {
		dst[i] = v.Float(i)
	}
}

// MarshalBinary encodes v (normalised first, so the bins take about five
// bytes each).
func (v *Vec) MarshalBinary() ([]byte, error) {
	v.normalize()
	out := binary.AppendUvarint(nil, uint64(len(v.bins)))
	for _, x := range v.bins {
		out = binary.AppendVarint(out, x)
	}
	return out, nil
}

// errCorrupt is the error of Unmarshal on bytes MarshalBinary did not write.
var errCorrupt = errors.New("exactsum: corrupt encoded sums")

// Unmarshal decodes the sums MarshalBinary wrote at the start of data and
// returns them and the rest of data.
func Unmarshal(data []byte) (*Vec, []byte, error) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n%bins != 0 || n > uint64(len(data)) {
		return nil, nil, errCorrupt
	}
	data = data[k:]
	v := &Vec{bins: make([]int64, n)}
	for i := range v.bins {
		x, k := binary.Varint(data)
		if k <= 0 || x >= 1<<40 || x <= -1<<40 {
			return nil, nil, errCorrupt
		}
		v.bins[i], data = x, data[k:]
	}
	return v, data, nil
}
