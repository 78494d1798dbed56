package xmath

import "github.com/rfkit/rfkit/internal/scalar"

// Exp is eˣ with the bits of trig.Exp (< 1 ULP, the same on every path and
// architecture; Go's math.Exp is assembly on amd64 and arm64, with different
// results). Special cases as trig.Exp: Exp(+Inf) = +Inf, Exp(−Inf) = 0,
// Exp(NaN) = NaN; it overflows exactly above 709.782712893384. For many
// values, call trig.Exp on a slice instead.
func Exp(x float64) float64 { return scalar.Exp(x) }

// Sincos returns sin x and cos x with the bits of trig.Sincos (< 1 ULP, the
// same on every path and architecture, unlike math.Sincos).
func Sincos(x float64) (sin, cos float64) { return scalar.Sincos(x) }
