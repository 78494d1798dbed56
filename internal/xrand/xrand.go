// Package xrand holds random draws whose values are the same bits on every
// architecture, for everything that ends up in a model file or a generated
// data set.
//
// math/rand/v2's uniform draws (Uint64, Float64, IntN, Shuffle, …) are
// integer arithmetic and already reproducible, but NormFloat64 and
// ExpFloat64 are not: their ziggurat tails call math.Exp and math.Log, which
// are assembly on amd64 and arm64 with different results, and the compiler
// may fuse a*b+c into one FMA on arm64 but not on amd64. The draws here are
// built from r.Uint64 or r.Float64 with package trig (cos, sin, exp:
// bit-identical on every path and architecture), xmath.LogAtanh and
// correctly rounded operations only, every product that feeds an addition
// being rounded on its own (float64(a*b)).
package xrand

import (
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/trig"
)

// pairBlock is the number of Box–Muller pairs FillNormal computes per call
// of trig.Sincos (the scratch arrays live on the stack).
const pairBlock = 128

// Normal returns a standard normal draw: the first half of one Box–Muller
// pair (see FillNormal), consuming two r.Uint64 values. Normal(r) equals the
// draw FillNormal(r, dst[:1]) would make.
func Normal(r *rand.Rand) float64 {
	var dst [1]float64
	FillNormal(r, dst[:])
	return dst[0]
}

// FillNormal sets dst to standard normal draws made by the Box–Muller
// transform: pair k uses u₁ = (a+1)·2⁻⁵³ ∈ (0, 1] and u₂ = b·2⁻⁵³ ∈ [0, 1)
// from the top 53 bits of two consecutive r.Uint64 values a, b, and gives
// ρ·cos(2πu₂) then ρ·sin(2πu₂) with ρ = √(−2 ln u₁). It consumes
// 2·⌈len(dst)/2⌉ values of r (an odd length drops the last sine), and
// filling a slice in one call or in several calls of even length gives the
// same values.
func FillNormal(r *rand.Rand, dst []float64) {
	var rad, ang, sin [pairBlock]float64
	for len(dst) > 0 {
		pairs := min((len(dst)+1)/2, pairBlock)
		for k := 0; k < pairs; k++ {
			u1 := float64(r.Uint64()>>11+1) * 0x1p-53
			u2 := float64(r.Uint64()>>11) * 0x1p-53
			rad[k] = math.Sqrt(-2 * xmath.LogAtanh(u1))
			ang[k] = 2 * math.Pi * u2
		}
		cos := ang[:pairs] // overwritten in place by the cosines
		trig.Sincos(sin[:pairs], cos, ang[:pairs])
		for k := 0; k < pairs; k++ {
			dst[2*k] = rad[k] * cos[k]
			if 2*k+1 < len(dst) {
				dst[2*k+1] = rad[k] * sin[k]
			}
		}
		dst = dst[min(2*pairs, len(dst)):]
	}
}

// Cauchy returns a standard Cauchy draw tan(π(u − ½)) with u = r.Float64(),
// consuming one r.Uint64 value; the tangent is sin/cos from trig.Sincos. The
// result is finite: |π(u − ½)| ≤ π/2 rounded below π/2, whose cosine is not 0.
func Cauchy(r *rand.Rand) float64 {
	var s, c, in [1]float64
	u := float64(r.Float64()) // rounded here: no FMA with the − ½ (exact either way)
	in[0] = math.Pi * (u - 0.5)
	trig.Sincos(s[:], c[:], in[:])
	return s[0] / c[0]
}

// normalBlock is the number of draws one refill of a Normals stream makes
// (even).
const normalBlock = 512

// Normals is a buffered stream of the FillNormal draws of one source, made
// a block of 512 at a time: it reads 512 values of its source ahead, so it
// should own that source. The sequence does not depend on how it is
// consumed (Next, Fill of any lengths).
type Normals struct {
	src *rand.Rand
	buf [normalBlock]float64
	pos int
}

// NewNormals returns the normal stream of src.
func NewNormals(src *rand.Rand) *Normals {
	return &Normals{src: src, pos: normalBlock}
}

// Next returns the next standard normal draw.
func (g *Normals) Next() float64 {
	if g.pos == normalBlock {
		FillNormal(g.src, g.buf[:])
		g.pos = 0
	}
	v := g.buf[g.pos]
	g.pos++
	return v
}

// Fill sets dst to the next len(dst) draws.
func (g *Normals) Fill(dst []float64) {
	for i := range dst {
		dst[i] = g.Next()
	}
}
