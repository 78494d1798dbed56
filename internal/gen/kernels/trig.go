package kernels

import "github.com/rfkit/rfkit/internal/poly"

// The trig programs mirror asm/trig_ref.go operation for operation.

type trigParts struct {
	rh, rl, kf, z V
}

// reduce is trigReduce: x = k·π/2 + rh + rl.
func reduce(b *Builder, x V) trigParts {
	shift := b.Const("shift", poly.RoundShift)
	kf := b.FMA(x, b.Const("twoOverPi", poly.TwoOverPi), shift)
	k := b.Sub(kf, shift)
	t1 := b.FNMA(k, b.Const("pio2a", poly.PiOver2A), x)
	pio2b := b.Const("pio2b", poly.PiOver2B)
	p2 := b.Mul(k, pio2b)
	e2 := b.FMS(k, pio2b, p2)
	rh := b.Sub(t1, p2)
	err := b.Sub(b.Sub(t1, rh), p2) // Fast2Sum, see trig_ref.go
	rl := b.FNMA(k, b.Const("pio2c", poly.PiOver2C), b.Sub(err, e2))
	return trigParts{rh, rl, kf, b.Mul(rh, rh)}
}

// sinKernel and cosKernel take z = x·x from the caller, which computes it
// once for both (the twins compute it in each; the bits are the same).
func sinKernel(b *Builder, x, y, z V) V {
	r := b.FMA(b.Const("s6", poly.S6), z, b.Const("s5", poly.S5))
	r = b.FMA(r, z, b.Const("s4", poly.S4))
	r = b.FMA(r, z, b.Const("s3", poly.S3))
	r = b.FMA(r, z, b.Const("s2", poly.S2))
	v := b.Mul(z, x)
	a := b.FNMA(v, r, b.Mul(b.Const("half", 0.5), y))
	bb := b.FMS(z, a, y)
	c := b.FNMA(v, b.Const("s1", poly.S1), bb)
	return b.Sub(x, c)
}

func cosKernel(b *Builder, x, y, z V) V {
	r := b.FMA(b.Const("c6", poly.C6), z, b.Const("c5", poly.C5))
	r = b.FMA(r, z, b.Const("c4", poly.C4))
	r = b.FMA(r, z, b.Const("c3", poly.C3))
	r = b.FMA(r, z, b.Const("c2", poly.C2))
	r = b.FMA(r, z, b.Const("c1", poly.C1))
	r = b.Mul(r, z)
	hz := b.Mul(b.Const("half", 0.5), z)
	one := b.Const("one", 1)
	w := b.Sub(one, hz)
	u := b.FMS(z, r, b.Mul(x, y))
	return b.Add(w, b.Add(b.Sub(b.Sub(one, w), hz), u))
}

// withSign flips the sign of v where bit 1 of the lane pattern q is set.
func withSign(b *Builder, v, q V) V {
	return b.Xor(v, b.And(b.Shl(q, 62), b.Bits("signbit", 1<<63)))
}

func sinOf(b *Builder, t trigParts, s, c V) V {
	return withSign(b, b.SelOdd(t.kf, c, s), t.kf)
}

func cosOf(b *Builder, t trigParts, s, c V) V {
	// bits(kf + 1) = bits(kf) + 1: kf lies in [2^52, 2^53), where the ulp is 1.
	return withSign(b, b.SelOdd(t.kf, s, c), b.Add(t.kf, b.Const("one", 1)))
}

func domain(b *Builder, x V) {
	b.Bail(x, b.Const("trigFastMax", poly.TrigFastMax))
}

// Cos is dst[i] = cos(x[i]).
func Cos() *Program {
	b := NewBuilder("cos", 1, 1, 0)
	x := b.Load(0)
	domain(b, x)
	t := reduce(b, x)
	b.Store(0, cosOf(b, t, sinKernel(b, t.rh, t.rl, t.z), cosKernel(b, t.rh, t.rl, t.z)))
	return b.Finish()
}

// Sin is dst[i] = sin(x[i]).
func Sin() *Program {
	b := NewBuilder("sin", 1, 1, 0)
	x := b.Load(0)
	domain(b, x)
	t := reduce(b, x)
	b.Store(0, sinOf(b, t, sinKernel(b, t.rh, t.rl, t.z), cosKernel(b, t.rh, t.rl, t.z)))
	return b.Finish()
}

// Sincos is s[i] = sin(x[i]), c[i] = cos(x[i]).
func Sincos() *Program {
	b := NewBuilder("sincos", 1, 2, 0)
	x := b.Load(0)
	domain(b, x)
	t := reduce(b, x)
	s, c := sinKernel(b, t.rh, t.rl, t.z), cosKernel(b, t.rh, t.rl, t.z)
	b.Store(0, sinOf(b, t, s, c))
	b.Store(1, cosOf(b, t, s, c))
	return b.Finish()
}

// CosShift is dst[i] = cos(x[i] − b).
func CosShift() *Program {
	b := NewBuilder("cosShift", 1, 1, 1)
	x := b.Sub(b.Load(0), b.Param(0))
	domain(b, x)
	t := reduce(b, x)
	b.Store(0, cosOf(b, t, sinKernel(b, t.rh, t.rl, t.z), cosKernel(b, t.rh, t.rl, t.z)))
	return b.Finish()
}

// CosAffine is dst[j] = scale·cos(b[j] + Σ_k x[k]·w[k·ldw + j]): one row of a
// random Fourier feature map, with the dot products kept in registers.
func CosAffine() *Program {
	b := NewBuilder("cosAffine", 1, 1, 1)
	b.p.Dot = true
	x := b.Load(0)
	domain(b, x)
	t := reduce(b, x)
	c := cosOf(b, t, sinKernel(b, t.rh, t.rl, t.z), cosKernel(b, t.rh, t.rl, t.z))
	b.Store(0, b.Mul(c, b.Param(0)))
	return b.Finish()
}
