package exploss

import (
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/asm"
)

// ErrShape reports inconsistent lengths or dimensions.
var ErrShape = errors.New("exploss: shape mismatch")

// Data is a column-major copy of an n×d sample matrix: Xt[k·N + i] is input
// k of sample i. The sweeps read it eight samples at a time.
type Data struct {
	Xt   []float64
	N, D int
}

// NewData copies the row-major matrix X (n rows of d values, row stride
// stride) into column-major order. It rejects NaN and ±Inf, naming the
// sample and input.
func NewData(X []float64, n, d, stride int) (*Data, error) {
	if n <= 0 || d <= 0 || stride < d || len(X) < (n-1)*stride+d {
		return nil, fmt.Errorf("%w: data %d×%d with stride %d in %d values", ErrShape, n, d, stride, len(X))
	}
	xt := make([]float64, n*d)
	for i := 0; i < n; i++ {
		row := X[i*stride : i*stride+d]
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("exploss: sample %d, input %d is %v", i, k, v)
			}
			xt[k*n+i] = v
		}
	}
	return &Data{Xt: xt, N: n, D: d}, nil
}

// Sincos sets s[i] = sin(p_i) and c[i] = cos(p_i) for p_i = Σ_k ω[k]·x_ik
// (one FMA per term, in k order).
func (x *Data) Sincos(s, c, omega []float64) error {
	if len(s) != x.N || len(c) != x.N || len(omega) != x.D {
		return fmt.Errorf("%w: Sincos with %d, %d outputs and %d weights for %d×%d data", ErrShape, len(s), len(c), len(omega), x.N, x.D)
	}
	forChunks(x.N, func(_, lo, hi int) {
		asm.SincosDot(s[lo:hi], c[lo:hi], x.Xt[lo:], x.N, omega)
	})
	return nil
}

func checkFiniteSlice(what string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("exploss: %s[%d] is %v", what, i, x)
		}
	}
	return nil
}
