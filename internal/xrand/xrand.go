// Package xrand holds random draws whose values are the same bits on every
// architecture, for everything that ends up in a model file or a generated
// data set.
//
// math/rand/v2's uniform draws (Uint64, Float64, IntN, Shuffle, …) are
// integer arithmetic and already reproducible, but NormFloat64 and
// ExpFloat64 are not: their ziggurat tails call math.Exp and math.Log, which
// are assembly on amd64 and arm64 with different results, and the compiler
// may fuse a*b+c into one FMA on arm64 but not on amd64. The draws here are
// built from r.Uint64 or r.Float64 with internal/scalar (the one-lane twin of
// the cos, sin and exp kernels: the same bits on every path and
// architecture), xmath.LogAtanh and
// correctly rounded operations only, every product that feeds an addition
// being rounded on its own (float64(a*b)).
package xrand

import (
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/internal/scalar"
	"github.com/rfkit/rfkit/internal/xmath"
)

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
	for k := 0; k < len(dst); k += 2 {
		u1 := float64(r.Uint64()>>11+1) * 0x1p-53
		u2 := float64(r.Uint64()>>11) * 0x1p-53
		rad := math.Sqrt(-2 * xmath.LogAtanh(u1))
		sin, cos := scalar.Sincos(2 * math.Pi * u2)
		dst[k] = rad * cos
		if k+1 < len(dst) {
			dst[k+1] = rad * sin
		}
	}
}

// Cauchy returns a standard Cauchy draw tan(π(u − ½)) with u = r.Float64(),
// consuming one r.Uint64 value; the tangent is sin/cos from scalar.Sincos. The
// result is finite: |π(u − ½)| ≤ π/2 rounded below π/2, whose cosine is not 0.
func Cauchy(r *rand.Rand) float64 {
	u := float64(r.Float64()) // rounded here: no FMA with the − ½ (exact either way)
	s, c := scalar.Sincos(math.Pi * (u - 0.5))
	return s / c
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
