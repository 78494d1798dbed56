package asm

// Cos sets dst[i] = cos(x[i]) for every i. See the package documentation for
// the accuracy contract (≤ 1 ULP everywhere). dst may be x itself; it panics
// if len(dst) < len(x).
func Cos(dst, x []float64) {
	checkLen("Cos", len(dst), len(x))
	cos(dst[:len(x)], x)
}

// Sin sets dst[i] = sin(x[i]); same contract as Cos.
func Sin(dst, x []float64) {
	checkLen("Sin", len(dst), len(x))
	sin(dst[:len(x)], x)
}

// Sincos sets sin[i] = sin(x[i]) and cos[i] = cos(x[i]) in one pass. Either
// output may be x itself, but not the other output. It panics if either output
// is shorter than x.
func Sincos(sin, cos, x []float64) {
	checkLen("Sincos", len(sin), len(x))
	checkLen("Sincos", len(cos), len(x))
	sincos(sin[:len(x)], cos[:len(x)], x)
}

// CosShift sets dst[i] = cos(x[i] − b), the difference rounded to float64 first
// (so dst[i] is exactly Cos of that rounded difference). dst may be x itself.
func CosShift(dst, x []float64, b float64) {
	checkLen("CosShift", len(dst), len(x))
	cosShift(dst[:len(x)], x, b)
}

func checkLen(fn string, dst, src int) {
	if dst < src {
		panic("asm." + fn + ": destination shorter than source")
	}
}
