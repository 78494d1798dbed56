package asm

import "github.com/rfkit/rfkit/internal/scalar"

func expGeneric(dst, x []float64) {
	for i, v := range x {
		dst[i] = scalar.Exp(v)
	}
}
