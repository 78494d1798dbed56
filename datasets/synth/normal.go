package synth

import (
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/trig"
)

// This file holds the arithmetic that must give the same bits on every
// architecture: math/rand/v2's NormFloat64 and Go's math.Exp, math.Log,
// math.Sin do not (assembly on some architectures, and the compiler may
// fuse a*b+c into one FMA on arm64, ppc64 and s390x). Products that feed
// an addition are therefore written float64(a*b), and cos, sin and exp come
// from package trig, whose results are bit-identical everywhere.

// normalBlock is the number of normals one refill produces (even).
const normalBlock = 512

// normals is a stream of standard normal draws made by the Box–Muller
// transform from its own PCG source: pair k uses u₁ = (a+1)·2⁻⁵³ ∈ (0, 1]
// and u₂ = b·2⁻⁵³ ∈ [0, 1) from two consecutive 53-bit draws a, b, and
// gives √(−2 ln u₁)·cos(2πu₂) then √(−2 ln u₁)·sin(2πu₂). Draws are
// computed a block at a time, but the sequence does not depend on how it
// is consumed.
type normals struct {
	src           *rand.Rand
	buf           [normalBlock]float64
	pos           int
	rad, ang, sin [normalBlock / 2]float64
}

// newNormals returns the normal stream of a generator for seed; it is
// independent of the generator's uniform source newRand(seed, tag).
func newNormals(seed, tag uint64) *normals {
	return &normals{src: rand.New(rand.NewPCG(seed, pcgStream^tag<<32)), pos: normalBlock}
}

// next returns the next standard normal draw.
func (g *normals) next() float64 {
	if g.pos == normalBlock {
		g.refill()
	}
	v := g.buf[g.pos]
	g.pos++
	return v
}

// fill sets dst to the next len(dst) draws.
func (g *normals) fill(dst []float64) {
	for i := range dst {
		dst[i] = g.next()
	}
}

// refill computes the next block of draws.
func (g *normals) refill() {
	for k := range g.rad {
		u1 := float64(g.src.Uint64()>>11+1) * 0x1p-53
		u2 := float64(g.src.Uint64()>>11) * 0x1p-53
		g.rad[k] = math.Sqrt(-2 * logPos(u1))
		g.ang[k] = 2 * math.Pi * u2
	}
	cos := g.ang[:] // overwritten in place by the cosines
	trig.Sincos(g.sin[:], cos, g.ang[:])
	for k, r := range g.rad {
		g.buf[2*k] = r * cos[k]
		g.buf[2*k+1] = r * g.sin[k]
	}
	g.pos = 0
}

// Cody–Waite split of ln 2: ln2Hi has 32 significant bits, so e·ln2Hi is
// exact for any binary exponent e.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// logPos returns the natural logarithm of a positive finite x within a few
// ULP, with the same bits on every architecture. With x = m·2^e and
// m ∈ [1/√2, √2), ln m = 2·atanh(s) with s = (m−1)/(m+1), |s| ≤ 0.1716,
// summed as its odd Taylor series up to s²³ (truncation < 1e-18 relative).
func logPos(x float64) float64 {
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

// sincosAll returns sin(x[i]) and cos(x[i]) computed by package trig.
func sincosAll(x []float64) (sin, cos []float64) {
	sin, cos = make([]float64, len(x)), make([]float64, len(x))
	trig.Sincos(sin, cos, x)
	return sin, cos
}
