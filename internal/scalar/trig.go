package scalar

import (
	"math"

	"github.com/rfkit/rfkit/internal/poly"
)

// This file is the pure-Go twin of the cos/sin kernels. Every SIMD body in
// asm/trig_amd64.s and asm/trig_arm64.s performs exactly these operations, with an FMA
// exactly where math.FMA appears, so results are bit-identical. Products are
// written float64(a*b) so that no compiler may fuse them into an FMA.

// TrigReduce returns x = k·π/2 + (rh + rl) for |x| ≤ poly.TrigFastMax, with k
// the integer nearest to x·2/π, and the bits of k + RoundShift (whose two low
// bits are k mod 4).
func TrigReduce(x float64) (rh, rl float64, kbits uint64) {
	kf := math.FMA(x, poly.TwoOverPi, poly.RoundShift)
	k := kf - poly.RoundShift
	// Exact: x and k·A are multiples of 2^-53 and the difference is below 1.
	t1 := math.FMA(-k, poly.PiOver2A, x)
	p2 := float64(k * poly.PiOver2B)
	e2 := math.FMA(k, poly.PiOver2B, -p2) // k·B − p2, exact
	// Fast2Sum: rh + err = t1 − p2 exactly. Its usual condition |t1| ≥ |p2|
	// can fail near multiples of π/2, but t1 is then a multiple of 2^-53
	// (x and k·A are) while ulp(p2) ≤ 2^-77, and Fast2Sum is exact whenever
	// the larger-named operand is a multiple of the other's ulp.
	rh = t1 - p2
	err := (t1 - rh) - p2
	rl = math.FMA(-k, poly.PiOver2C, err-e2)
	return rh, rl, math.Float64bits(kf)
}

// sinKernel returns sin(x+y) for |x| ≤ π/4, |y| ≪ |x| (fdlibm's __kernel_sin,
// with FMAs).
func sinKernel(x, y float64) float64 {
	z := float64(x * x)
	r := math.FMA(poly.S6, z, poly.S5)
	r = math.FMA(r, z, poly.S4)
	r = math.FMA(r, z, poly.S3)
	r = math.FMA(r, z, poly.S2)
	v := float64(z * x)
	a := math.FMA(-v, r, float64(0.5*y))
	b := math.FMA(z, a, -y)
	c := math.FMA(-v, poly.S1, b)
	return x - c
}

// cosKernel returns cos(x+y) for |x| ≤ π/4, |y| ≪ |x| (fdlibm's __kernel_cos:
// 1 − x²/2 is formed with its rounding error carried separately).
func cosKernel(x, y float64) float64 {
	z := float64(x * x)
	r := math.FMA(poly.C6, z, poly.C5)
	r = math.FMA(r, z, poly.C4)
	r = math.FMA(r, z, poly.C3)
	r = math.FMA(r, z, poly.C2)
	r = math.FMA(r, z, poly.C1)
	r = float64(r * z)
	hz := float64(0.5 * z)
	w := 1 - hz
	u := math.FMA(z, r, -float64(x*y))
	return w + (((1 - w) - hz) + u)
}

const signBit = 1 << 63

// sinFromReduced and cosFromReduced apply the quadrant k mod 4 (the two low bits
// of kbits): they select the sine or cosine kernel and flip the sign bit.
func sinFromReduced(rh, rl float64, kbits uint64) float64 {
	v := sinKernel(rh, rl)
	if kbits&1 != 0 {
		v = cosKernel(rh, rl)
	}
	return math.Float64frombits(math.Float64bits(v) ^ (kbits<<62)&signBit)
}

func cosFromReduced(rh, rl float64, kbits uint64) float64 {
	v := cosKernel(rh, rl)
	if kbits&1 != 0 {
		v = sinKernel(rh, rl)
	}
	return math.Float64frombits(math.Float64bits(v) ^ ((kbits+1)<<62)&signBit)
}

// inTrigDomain reports whether x takes the vector path (false for NaN).
func inTrigDomain(x float64) bool { return math.Abs(x) <= poly.TrigFastMax }

// reduceAny reduces any finite x; NaN and ±Inf give NaN.
func reduceAny(x float64) (rh, rl float64, kbits uint64) {
	if inTrigDomain(x) {
		return TrigReduce(x)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN(), 0, 0
	}
	return reducePiOver2(x)
}

// Cos is the scalar twin of one lane of asm.Cos.
func Cos(x float64) float64 {
	rh, rl, q := reduceAny(x)
	return cosFromReduced(rh, rl, q)
}

// Sin is the scalar twin of one lane of asm.Sin.
func Sin(x float64) float64 {
	rh, rl, q := reduceAny(x)
	return sinFromReduced(rh, rl, q)
}

// Sincos is the scalar twin of one lane of asm.Sincos.
func Sincos(x float64) (s, c float64) {
	rh, rl, q := reduceAny(x)
	return sinFromReduced(rh, rl, q), cosFromReduced(rh, rl, q)
}
