package asm

// Exp sets dst[i] = exp(x[i]) for every i, within 1 ULP, with exact IEEE edge
// behaviour: +Inf for x > 709.782712893384 (the true overflow threshold),
// correctly rounded subnormals below −708.4, 0 below −745.1332, NaN for NaN.
// dst may be x itself; it panics if len(dst) < len(x).
func Exp(dst, x []float64) {
	checkLen("Exp", len(dst), len(x))
	exp(dst[:len(x)], x)
}
