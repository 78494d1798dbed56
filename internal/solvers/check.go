package solvers

import (
	"errors"
	"fmt"
	"math"
)

// ErrNotFinite is wrapped by every error caused by a NaN or infinite value,
// in the inputs or returned by a user-supplied objective.
var ErrNotFinite = errors.New("non-finite value")

// checkMatrix validates a dense row-major n×d matrix.
func checkMatrix(name string, X []float64, n, d int) error {
	if n <= 0 {
		return fmt.Errorf("%s: number of rows n = %d, want > 0", name, n)
	}
	if d <= 0 {
		return fmt.Errorf("%s: number of columns d = %d, want > 0", name, d)
	}
	if n > math.MaxInt/d || len(X) != n*d {
		return fmt.Errorf("%s: len = %d, want n*d = %d*%d", name, len(X), n, d)
	}
	if i := firstNonFinite(X); i >= 0 {
		return fmt.Errorf("%s: element %d (row %d, column %d) is %v: %w", name, i, i/d, i%d, X[i], ErrNotFinite)
	}
	return nil
}

// checkVector validates a vector of length n with finite entries.
func checkVector(name string, v []float64, n int) error {
	if len(v) != n {
		return fmt.Errorf("%s: len = %d, want %d", name, len(v), n)
	}
	if i := firstNonFinite(v); i >= 0 {
		return fmt.Errorf("%s: element %d is %v: %w", name, i, v[i], ErrNotFinite)
	}
	return nil
}

// checkLabels validates ±1 labels of length n.
func checkLabels(name string, y []float64, n int) error {
	if len(y) != n {
		return fmt.Errorf("%s: len = %d, want %d", name, len(y), n)
	}
	for i, v := range y {
		if v != 1 && v != -1 {
			return fmt.Errorf("%s: element %d is %v, want -1 or +1", name, i, v)
		}
	}
	return nil
}

// firstNonFinite returns the index of the first NaN or ±Inf in v, or -1.
func firstNonFinite(v []float64) int {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return i
		}
	}
	return -1
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// dot, axpy and norm2 round every product on its own (float64(a*b)) and
// sum in index order, so they give the same bits on every architecture (the
// Go compiler would fuse a*b+c into an FMA on arm64 but not on amd64).

// dot returns Σ a_i·b_i.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		s += float64(v * b[i])
	}
	return s
}

// axpy computes y += alpha*x.
// It is unrolled by four; each element still gets one rounded product
// and one add, so the bits are those of the plain loop.
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		xx, yy := x[i:i+4:i+4], y[i:i+4:i+4]
		yy[0] += float64(alpha * xx[0])
		yy[1] += float64(alpha * xx[1])
		yy[2] += float64(alpha * xx[2])
		yy[3] += float64(alpha * xx[3])
	}
	for ; i < len(x); i++ {
		y[i] += float64(alpha * x[i])
	}
}

func normInf(v []float64) float64 {
	var m float64
	for _, x := range v {
		if a := math.Abs(x); a > m || math.IsNaN(a) {
			m = a
		}
	}
	return m
}

func norm2(v []float64) float64 {
	// Scaled to avoid overflow for huge entries.
	scale := normInf(v)
	if scale == 0 || !isFinite(scale) {
		return scale
	}
	var s float64
	for _, x := range v {
		t := x / scale
		s += float64(t * t)
	}
	return scale * math.Sqrt(s)
}
