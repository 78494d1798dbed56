package solvers

import "math"

// This file holds the small dense kernels of Ridge: the Gram matrix, a
// Cholesky factorisation, triangular solves and a 1-norm condition
// estimate. They replace gonum's mat.Cholesky and blas routines, whose
// results differ between architectures (assembly kernels on amd64, Go code
// that the compiler fuses into FMAs on arm64) and between blocking
// strategies. Here every loop runs in a fixed order, every product that
// feeds an addition is rounded on its own (float64(a*b)), and partial sums
// are combined in a fixed tree, so the results have the same bits on every
// architecture.

// gram sets the lower triangle of the d×d row-major a to the Gram matrix
// of rows lo..hi−1 of X, where X is given transposed: xt is d×n row-major
// (row j is column j of X). Entry (j, k) is the plain sequential sum over
// i in [lo, hi) of xt[j][i]·xt[k][i]; four k are computed per pass over
// row j, for speed only.
func gram(a, xt []float64, n, d, lo, hi int) {
	for j := 0; j < d; j++ {
		cj := xt[j*n+lo : j*n+hi]
		row := a[j*d : j*d+j+1]
		k := 0
		for ; k+4 <= j+1; k += 4 {
			c0 := xt[k*n+lo : k*n+hi][:len(cj)]
			c1 := xt[(k+1)*n+lo : (k+1)*n+hi][:len(cj)]
			c2 := xt[(k+2)*n+lo : (k+2)*n+hi][:len(cj)]
			c3 := xt[(k+3)*n+lo : (k+3)*n+hi][:len(cj)]
			var s0, s1, s2, s3 float64
			for i, v := range cj {
				s0 += float64(v * c0[i])
				s1 += float64(v * c1[i])
				s2 += float64(v * c2[i])
				s3 += float64(v * c3[i])
			}
			row[k], row[k+1], row[k+2], row[k+3] = s0, s1, s2, s3
		}
		for ; k <= j; k++ {
			row[k] = dot(cj, xt[k*n+lo:k*n+hi])
		}
	}
}

// dot4 is Σ a_i·b_i with four interleaved partial sums (lane i mod 4 for
// the whole blocks), combined as (s0 + s1) + (s2 + s3), then the tail added
// in order: a fixed order, so the same bits everywhere.
func dot4(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += float64(a[i] * b[i])
		s1 += float64(a[i+1] * b[i+1])
		s2 += float64(a[i+2] * b[i+2])
		s3 += float64(a[i+3] * b[i+3])
	}
	s := (s0 + s1) + (s2 + s3)
	for ; i < len(a); i++ {
		s += float64(a[i] * b[i])
	}
	return s
}

// cholesky is the factorisation A = L·Lᵀ of a symmetric positive definite
// d×d matrix, L lower triangular, stored row-major in l (the strict upper
// triangle is unused).
type cholesky struct {
	d int
	l []float64
}

// factorize computes L from the lower triangle of a (d×d row-major; a is
// not modified) by the row-oriented (Cholesky–Banachiewicz) algorithm. It
// reports false, like LAPACK's dpotrf, when a pivot is not positive (or is
// NaN): a is not positive definite to working precision.
func (c *cholesky) factorize(a []float64, d int) bool {
	c.d = d
	if len(c.l) != d*d {
		c.l = make([]float64, d*d)
	}
	l := c.l
	for i := 0; i < d; i++ {
		li := l[i*d : i*d+i+1]
		for j := 0; j < i; j++ {
			li[j] = (a[i*d+j] - dot4(li[:j], l[j*d:j*d+j])) / l[j*d+j]
		}
		s := a[i*d+i] - dot4(li[:i], li[:i])
		if !(s > 0) {
			return false
		}
		li[i] = math.Sqrt(s)
	}
	return true
}

// solve overwrites x (len d) with A⁻¹x: L z = x forward, then Lᵀ w = z
// backward.
func (c *cholesky) solve(x []float64) {
	d, l := c.d, c.l
	x = x[:d]
	for i := 0; i < d; i++ {
		x[i] = (x[i] - dot4(l[i*d:i*d+i], x[:i])) / l[i*d+i]
	}
	// Lᵀ is column-oriented in the row-major L: subtract each solved
	// component from the rows above it (column-sweep back substitution).
	for i := d - 1; i >= 0; i-- {
		x[i] /= l[i*d+i]
		xi := x[i]
		row := l[i*d : i*d+i]
		for k, v := range row {
			x[k] -= float64(v * xi)
		}
	}
}

// cond estimates the 1-norm condition number ‖A‖₁·‖A⁻¹‖₁ of the factorised
// matrix, given anorm = ‖A‖₁: ‖A⁻¹‖₁ by Hager's method as refined by
// Higham (LAPACK's dlacn2, used by dpocon, which gonum's Cholesky.Cond
// calls), a lower bound that is almost always within a factor 3. It is +Inf
// when the estimate is not finite or zero. It allocates 2·d floats.
func (c *cholesky) cond(anorm float64) float64 {
	d := c.d
	x, sgn := make([]float64, d), make([]float64, d)
	sign := func(v float64) float64 {
		if v >= 0 {
			return 1
		}
		return -1
	}
	norm1 := func(v []float64) float64 {
		var s float64
		for _, e := range v {
			s += math.Abs(e)
		}
		return s
	}
	argmax := func(v []float64) int {
		j := 0
		for i, e := range v {
			if math.Abs(e) > math.Abs(v[j]) {
				j = i
			}
		}
		return j
	}
	for i := range x {
		x[i] = 1 / float64(d)
	}
	c.solve(x)
	est := norm1(x)
	if d > 1 {
		for i, v := range x {
			sgn[i] = sign(v)
		}
		copy(x, sgn)
		c.solve(x) // A is symmetric: Aᵀ = A
		j := argmax(x)
		for iter := 2; iter <= 5; iter++ {
			clear(x)
			x[j] = 1
			c.solve(x)
			old := est
			est = norm1(x)
			same := true
			for i, v := range x {
				if sign(v) != sgn[i] {
					same = false
					break
				}
			}
			if same || est <= old { // converged, or cycling
				est = math.Max(est, old)
				break
			}
			for i, v := range x {
				sgn[i] = sign(v)
			}
			copy(x, sgn)
			c.solve(x)
			last := j
			j = argmax(x)
			if x[last] == math.Abs(x[j]) {
				break
			}
		}
		// The alternative estimate with x_i = ±(1 + i/(d−1)).
		alt := 1.0
		for i := range x {
			x[i] = alt * (1 + float64(i)/float64(d-1))
			alt = -alt
		}
		c.solve(x)
		est = math.Max(est, 2*(norm1(x)/float64(3*d)))
	}
	cond := anorm * est
	if !(est > 0) || math.IsNaN(cond) {
		return math.Inf(1)
	}
	return cond
}

// symNorm1 is ‖A‖₁ (= ‖A‖∞) of the symmetric d×d matrix whose lower
// triangle is in a (row-major).
func symNorm1(a []float64, d int) float64 {
	sums := make([]float64, d)
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			v := math.Abs(a[i*d+j])
			sums[i] += v
			if j != i {
				sums[j] += v
			}
		}
	}
	var m float64
	for _, s := range sums {
		if s > m || math.IsNaN(s) {
			m = s
		}
	}
	return m
}
