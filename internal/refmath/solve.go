package refmath

import (
	"errors"
	"math"
)

// Solve returns x with a·x = b for the n×n row-major matrix a, by Gaussian
// elimination with partial pivoting in float64. It is the tests' reference for
// linear solves, written independently of the factorisations under test
// (solvers' Cholesky and conjugate gradients). a and b are not modified. It
// fails when len(a) ≠ n·n, len(b) ≠ n, or a pivot is exactly zero.
func Solve(a []float64, n int, b []float64) ([]float64, error) {
	if n < 0 || len(a) != n*n || len(b) != n {
		return nil, errors.New("refmath: Solve needs an n×n matrix and n right-hand sides")
	}
	m := append([]float64(nil), a...)
	x := append([]float64(nil), b...)
	for k := 0; k < n; k++ {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(m[i*n+k]) > math.Abs(m[p*n+k]) {
				p = i
			}
		}
		if m[p*n+k] == 0 {
			return nil, errors.New("refmath: Solve: singular matrix")
		}
		if p != k {
			for j := 0; j < n; j++ {
				m[k*n+j], m[p*n+j] = m[p*n+j], m[k*n+j]
			}
			x[k], x[p] = x[p], x[k]
		}
		for i := k + 1; i < n; i++ {
			f := m[i*n+k] / m[k*n+k]
			if f == 0 {
				continue
			}
			for j := k; j < n; j++ {
				m[i*n+j] -= f * m[k*n+j]
			}
			x[i] -= f * x[k]
		}
	}
	for k := n - 1; k >= 0; k-- {
		s := x[k]
		for j := k + 1; j < n; j++ {
			s -= m[k*n+j] * x[j]
		}
		x[k] = s / m[k*n+k]
	}
	return x, nil
}
