package asm

import "fmt"

// CosAffine computes one row of a random Fourier feature map:
//
//	for j := range b {
//		acc := b[j]
//		for k := range x {
//			acc = math.FMA(x[k], w[k*ldw+j], acc)
//		}
//		dst[j] = scale * cos(acc)
//	}
//
// with cos as in Cos (≤ 1 ULP, any argument). The dot products stay in
// registers: no x·W intermediate is written. w is row-major with row stride
// ldw ≥ len(b). It panics if the shapes are inconsistent (a programming error
// on a hot path; featmap checks shapes once per call).
func CosAffine(dst, x, w, b []float64, ldw int, scale float64) {
	if len(dst) < len(b) || ldw < len(b) || (len(x) > 0 && len(w) < (len(x)-1)*ldw+len(b)) {
		panic(fmt.Sprintf("asm.CosAffine: shapes dst %d, x %d, w %d, b %d, ldw %d", len(dst), len(x), len(w), len(b), ldw))
	}
	if len(x) == 0 {
		w = nil
	}
	cosAffine(dst[:len(b)], x, w, b, ldw, scale)
}
