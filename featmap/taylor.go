package featmap

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/xmath"
)

// Taylor is the explicit feature map of the Gaussian kernel
// exp(−‖x−x'‖²/2σ²) truncated at total degree p (MFGA's candidate
// dictionary):
//
//	φ_α(x) = e^{−‖x‖²/2σ²} · x^α / (σ^{|α|}·√(α!)),   |α| ≤ p,
//
// in graded order (α = 0; then the d first-degree terms; then for p = 2 the
// pairs k ≤ l), optionally followed by the d linear features x_k of the
// linear kernel. Outputs: 1 + d (p = 1), 1 + d + d(d+1)/2 (p = 2), plus d
// with Linear. Σ_α φ_α(x)φ_α(x') → k(x, x') as p grows.
type Taylor struct {
	d, degree int
	sigma     float64
	linear    bool
	inv       float64 // 1/σ
}

// NewTaylor builds the map for d inputs, degree 1 or 2 and bandwidth σ > 0.
func NewTaylor(inputs, degree int, sigma float64, linear bool) (*Taylor, error) {
	switch {
	case inputs <= 0:
		return nil, fmt.Errorf("featmap: Taylor inputs = %d, must be positive", inputs)
	case degree != 1 && degree != 2:
		return nil, fmt.Errorf("featmap: Taylor degree %d, want 1 or 2", degree)
	case !(sigma > 0) || math.IsInf(sigma, 0):
		return nil, fmt.Errorf("featmap: Taylor σ = %v, must be positive and finite", sigma)
	}
	return &Taylor{d: inputs, degree: degree, sigma: sigma, linear: linear, inv: 1 / sigma}, nil
}

// Inputs is d.
func (t *Taylor) Inputs() int { return t.d }

// Outputs is the number of features.
func (t *Taylor) Outputs() int {
	n := 1 + t.d
	if t.degree == 2 {
		n += t.d * (t.d + 1) / 2
	}
	if t.linear {
		n += t.d
	}
	return n
}

// TransformRow writes the features of x into dst[:Outputs()].
func (t *Taylor) TransformRow(dst, x []float64) {
	g := xmath.Exp(TaylorExpArg(x, t.inv)) // the same bits everywhere, unlike math.Exp
	TaylorRow(dst, x, g, t.inv, t.degree, t.linear)
}

// TaylorExpArg is −‖x‖²/2σ² (inv = 1/σ), the argument of the Gaussian
// factor of the Taylor map, with the squares summed by FMA in order.
func TaylorExpArg(x []float64, inv float64) float64 {
	var n2 float64
	for _, v := range x {
		n2 = math.FMA(v, v, n2)
	}
	return -0.5 * n2 * inv * inv
}

// TaylorRow writes the Taylor features of x (degree 1 or 2, inv = 1/σ,
// with the d linear features if linear) into dst, given the Gaussian
// factor g = e^{−‖x‖²/2σ²}, for callers that compute the exponentials of
// many rows at once (mfga's dictionary). TransformRow is TaylorRow with
// g = xmath.Exp(TaylorExpArg(x, inv)).
func TaylorRow(dst, x []float64, g, inv float64, degree int, linear bool) {
	dst[0] = g
	o := 1
	for _, v := range x {
		dst[o] = g * v * inv
		o++
	}
	if degree == 2 {
		c := g * inv * inv
		for k, vk := range x {
			dst[o] = c * vk * vk / math.Sqrt2 // α! = 2
			o++
			for _, vl := range x[k+1:] {
				dst[o] = c * vk * vl
				o++
			}
		}
	}
	if linear {
		copy(dst[o:], x)
	}
}

// Transform writes the features of every row of X into dst.
func (t *Taylor) Transform(dst, X Matrix) error {
	if err := checkTransform(dst, X, t.d, t.Outputs()); err != nil {
		return err
	}
	for i := 0; i < X.Rows; i++ {
		t.TransformRow(dst.Row(i), X.Row(i))
	}
	return nil
}
