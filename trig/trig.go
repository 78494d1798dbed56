// Package trig is rfkit's slice math: cos, sin, sincos and exp over float64
// slices, vectorised with AVX-512, AVX2+FMA or NEON where the CPU has them and
// pure Go elsewhere (or with -tags purego).
//
// Accuracy: every function is within 1 ULP of the exact result for every
// finite input (measured maximum: 0.73 ULP for cos and sin, 0.74 for exp),
// including huge trigonometric arguments, which are reduced with a correct
// Payne–Hanek step. Go's math.Cos reduces large arguments with less precision:
// it is close to exact for most inputs, but where the result is near a zero of
// cos it loses relative accuracy — the worst of 10⁵ uniform points in ±1e10
// was 4.6e4 ULP (x ≈ 5.314e9, cos x ≈ −1.4e−5), measured against a big.Float
// reference. Results are bit-identical on every path and architecture.
//
// Special values: cos, sin of NaN or ±Inf is NaN; sin(±0) = ±0; exp(+Inf) =
// +Inf, exp(−Inf) = 0, exp(NaN) = NaN, and exp overflows exactly above
// 709.782712893384 and returns correctly rounded subnormals below −708.39.
//
// Every function accepts dst == x. It panics if dst is shorter than x (a
// programming error, like an out-of-range index).
//
// Set RFKIT_DISABLE=avx512,avx2,neon to turn paths off; asm.Selected
// reports the one in use.
package trig

import "github.com/rfkit/rfkit/internal/asm"

// Cos sets dst[i] = cos(x[i]) for i < len(x).
func Cos(dst, x []float64) { asm.Cos(dst, x) }

// Sin sets dst[i] = sin(x[i]) for i < len(x).
func Sin(dst, x []float64) { asm.Sin(dst, x) }

// Sincos sets sin[i] = sin(x[i]) and cos[i] = cos(x[i]) in one pass, for about
// the cost of one of them. Either output may be x, but they must not overlap
// each other.
func Sincos(sin, cos, x []float64) { asm.Sincos(sin, cos, x) }

// Exp sets dst[i] = exp(x[i]) for i < len(x).
func Exp(dst, x []float64) { asm.Exp(dst, x) }
