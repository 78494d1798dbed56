package graph

import "math"

// Transpose returns the D×K read-out of K rows of D coefficients
// (coef[k·D + j], the layout of the learners' multiclass heads).
func Transpose(coef []float64, K, D int) []float64 {
	r := make([]float64, D*K)
	for k := 0; k < K; k++ {
		for j := 0; j < D; j++ {
			r[j*K+k] = coef[k*D+j]
		}
	}
	return r
}

// SinCos returns the two blocks of the features [cos(z·W), sin(z·W)]·scale
// (W d×D) read out by K rows of 2D weights (w[k·2D + j] for the cosine j,
// w[k·2D + D + j] for the sine j), the layout of fogd and rrf. The sine is
// written as the cosine of the phase −π/2.
func SinCos(W []float64, D int, scale float64, w []float64, K int) []Block {
	rc, rs := make([]float64, D*K), make([]float64, D*K)
	for k := 0; k < K; k++ {
		for j := 0; j < D; j++ {
			rc[j*K+k] = w[k*2*D+j]
			rs[j*K+k] = w[k*2*D+D+j]
		}
	}
	phase := make([]float64, D)
	for j := range phase {
		phase[j] = -math.Pi / 2
	}
	return []Block{
		{Act: Cosines, D: D, W: W, Scale: scale, R: rc},
		{Act: Cosines, D: D, W: W, B: phase, Scale: scale, R: rs},
	}
}
