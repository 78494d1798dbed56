package asm

import (
	"github.com/rfkit/rfkit/internal/scalar"
	"math"
)

// cosAffineRef is the scalar twin of one lane (column j) of CosAffine.
func cosAffineRef(x, w []float64, bj float64, j, ldw int, scale float64) float64 {
	acc := bj
	for k, xk := range x {
		acc = math.FMA(xk, w[k*ldw+j], acc)
	}
	return float64(scale * scalar.Cos(acc))
}

// cosAffineGeneric computes columns [j0, j1) of CosAffine with the twin.
func cosAffineGeneric(dst, x, w, b []float64, ldw int, scale float64, j0, j1 int) {
	for j := j0; j < j1; j++ {
		dst[j] = cosAffineRef(x, w, b[j], j, ldw, scale)
	}
}
