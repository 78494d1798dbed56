package asm

import "github.com/rfkit/rfkit/internal/scalar"

// trigOp names the four trig kernels for the shared driver.
type trigOp uint8

const (
	opCos      trigOp = iota // d1 = cos(x)
	opSin                    // d1 = sin(x)
	opSincos                 // d1 = sin(x), d2 = cos(x)
	opCosShift               // d1 = cos(x − b)
)

// trigGeneric is the slice twin: the generic path, and the vectors the SIMD
// bodies hand back.
func trigGeneric(op trigOp, d1, d2, x []float64, b float64) {
	switch op {
	case opCos:
		for i, v := range x {
			d1[i] = scalar.Cos(v)
		}
	case opSin:
		for i, v := range x {
			d1[i] = scalar.Sin(v)
		}
	case opSincos:
		for i, v := range x {
			d1[i], d2[i] = scalar.Sincos(v)
		}
	case opCosShift:
		for i, v := range x {
			d1[i] = scalar.Cos(v - b)
		}
	}
}
