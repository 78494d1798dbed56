// Package scalar is the one-lane reference of asm's exp, sin and cos kernels:
// every SIMD body performs exactly these operations (an FMA exactly where
// math.FMA appears, products written float64(a*b) so that no compiler fuses
// them), so a value computed here has the bits the vector kernels give on
// every path and architecture. asm's generic path and internal/xmath use it.
package scalar
