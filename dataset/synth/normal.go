package synth

import (
	"math/rand/v2"

	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/trig"
)

// This file holds the sources of the arithmetic that must give the same
// bits on every architecture: math/rand/v2's NormFloat64 and Go's
// math.Exp, math.Log, math.Sin do not (assembly on some architectures, and
// the compiler may fuse a*b+c into one FMA on arm64, ppc64 and s390x).
// Normals come from internal/xrand's Box–Muller stream, logarithms from
// xmath.LogAtanh, cos, sin and exp from package trig, and products that
// feed an addition are written float64(a*b).

// newNormals returns the normal stream of a generator for seed: the
// Box–Muller draws of xrand.Normals on its own PCG source, independent of
// the generator's uniform source newRand(seed, tag).
func newNormals(seed, tag uint64) *xrand.Normals {
	return xrand.NewNormals(rand.New(rand.NewPCG(seed, pcgStream^tag<<32)))
}

// sincosAll returns sin(x[i]) and cos(x[i]) computed by package trig.
func sincosAll(x []float64) (sin, cos []float64) {
	sin, cos = make([]float64, len(x)), make([]float64, len(x))
	trig.Sincos(sin, cos, x)
	return sin, cos
}
