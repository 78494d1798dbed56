package rfbeam

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
)

// exactBins is the number of 32-bit bins of an exact sum: a float64 is
// m·2^(e−1075) with a 53-bit m and 1 ≤ e ≤ 2046, so its bits lie at
// positions 0 to 2098 of a fixed-point number with 2^−1074 as its unit,
// 66 bins, plus one for carries.
const exactBins = 67

// exactLimit is the number of additions a bin absorbs before its carries
// must be propagated: each adds at most 2^32 − 1 in magnitude to an int64.
const exactLimit = 1 << 30

// exactVec is a vector of exact sums of float64 values: every value is
// added into a fixed-point number of 2144 bits (the whole float64 range),
// so the sums are exact, and addition and Merge are associative and
// commutative: the rounded result does not depend on the order or the
// grouping (sharding) of the terms. Adding costs a few integer operations
// per value, about three times a float64 addition.
type exactVec struct {
	bins []int64 // len n·exactBins; bin k of sum i at i·exactBins + k
	adds int     // additions per sum since the carries were propagated
}

func newExactVec(n int) *exactVec { return &exactVec{bins: make([]int64, n*exactBins)} }

// len is the number of sums.
func (v *exactVec) len() int { return len(v.bins) / exactBins }

// add adds x (finite) to sum i. Callers call step after adding at most
// one value to every sum.
func (v *exactVec) add(i int, x float64) {
	bits := math.Float64bits(x)
	e := int(bits>>52) & 0x7ff
	m := bits & (1<<52 - 1)
	if e == 0 {
		if m == 0 {
			return
		}
		e = 1
	} else {
		m |= 1 << 52
	}
	p := e - 1 // the position of m's lowest bit
	k, s := p>>5, uint(p&31)
	lo := int64((m << s) & 0xffffffff)
	mid := int64((m >> (32 - s)) & 0xffffffff)
	hi := int64(m >> (64 - s)) // 0 when s = 0
	b := v.bins[i*exactBins+k : i*exactBins+k+3]
	if bits>>63 != 0 {
		b[0] -= lo
		b[1] -= mid
		b[2] -= hi
	} else {
		b[0] += lo
		b[1] += mid
		b[2] += hi
	}
}

// step counts one addition to every sum, propagating the carries when due.
func (v *exactVec) step() {
	if v.adds++; v.adds >= exactLimit {
		v.normalize()
	}
}

// normalize propagates the carries: every bin but the last in [0, 2^32).
func (v *exactVec) normalize() {
	for i := range v.len() {
		b := v.bins[i*exactBins : (i+1)*exactBins]
		for k := 0; k < exactBins-1; k++ {
			c := b[k] >> 32
			b[k] -= c << 32
			b[k+1] += c
		}
	}
	v.adds = 0
}

// merge adds the sums of w to those of v.
func (v *exactVec) merge(w *exactVec) error {
	if len(v.bins) != len(w.bins) {
		return fmt.Errorf("rfbeam: merging %d exact sums with %d", v.len(), w.len())
	}
	if v.adds+w.adds >= exactLimit {
		v.normalize()
		w.normalize()
	}
	for k, x := range w.bins {
		v.bins[k] += x
	}
	v.adds += w.adds
	return nil
}

// float returns sum i correctly rounded to float64 (to nearest, ties to
// even); ±Inf when it overflows.
func (v *exactVec) float(i int) float64 {
	v.normalize()
	b := v.bins[i*exactBins : (i+1)*exactBins]
	var z, t big.Int
	for k := exactBins - 1; k >= 0; k-- {
		z.Lsh(&z, 32)
		t.SetInt64(b[k])
		z.Add(&z, &t)
	}
	var f big.Float
	f.SetInt(&z)
	f.SetMantExp(&f, -1074)
	x, _ := f.Float64()
	return x
}

// floats returns every sum rounded (float).
func (v *exactVec) floats() []float64 {
	out := make([]float64, v.len())
	for i := range out {
		out[i] = v.float(i)
	}
	return out
}

// marshal encodes v (normalised first, so the bins fit 33 bits).
func (v *exactVec) marshal() []byte {
	v.normalize()
	out := binary.AppendUvarint(nil, uint64(len(v.bins)))
	for _, x := range v.bins {
		out = binary.AppendVarint(out, x)
	}
	return out
}

// unmarshalExact decodes what marshal wrote, returning the rest of data.
func unmarshalExact(data []byte) (*exactVec, []byte, error) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n%exactBins != 0 || n > uint64(len(data)) {
		return nil, nil, errors.New("rfbeam: corrupt exact sum")
	}
	data = data[k:]
	v := &exactVec{bins: make([]int64, n)}
	for i := range v.bins {
		x, k := binary.Varint(data)
		if k <= 0 {
			return nil, nil, errors.New("rfbeam: corrupt exact sum")
		}
		v.bins[i], data = x, data[k:]
	}
	return v, data, nil
}
