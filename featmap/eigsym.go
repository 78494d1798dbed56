package featmap

import (
	"errors"
	"math"
	"sort"
)

// maxJacobiSweeps bounds the cyclic Jacobi iteration. Convergence is
// quadratic once the off-diagonal part is small: symmetric matrices of a few
// hundred rows take 6 to 10 sweeps.
const maxJacobiSweeps = 60

// errNoConvergence is returned by eigSym when the off-diagonal part has not
// vanished after maxJacobiSweeps sweeps (it has not been seen on finite
// input; it guards against an endless loop).
var errNoConvergence = errors.New("featmap: symmetric eigensolver did not converge")

// eigSym computes the eigendecomposition a = U·diag(vals)·Uᵀ of the
// symmetric n×n row-major matrix a (only a's symmetric part is meaningful;
// a is overwritten) by the cyclic Jacobi method: sweeps of plane rotations
// over every pair p < q in row order, each zeroing a_pq, skipping pairs with
// |a_pq| ≤ ε·‖a‖_F and stopping after the first sweep that rotates nothing.
// The eigenvalues then carry an absolute error of a few ε·‖a‖_F, and the
// eigenvectors are orthonormal to a few ε. vals is sorted in decreasing order
// (ties in the order of the diagonal); vecs is n×n row-major with column k
// the eigenvector of vals[k].
//
// Every product is rounded on its own (float64(a*b)) and the loops run in a
// fixed order, so the result has the same bits on every architecture and
// SIMD path. Cost: about 12·n³ multiply–adds per sweep, memory 2·n² floats.
// The input must be finite (the caller checks it).
func eigSym(a []float64, n int) (vals, vecs []float64, err error) {
	v := make([]float64, n*n)
	for i := 0; i < n; i++ {
		v[i*n+i] = 1
	}
	var fro float64
	for _, x := range a[:n*n] {
		fro += float64(x * x)
	}
	tol := 0x1p-52 * math.Sqrt(fro)
	converged := n < 2 || fro == 0
	for sweep := 0; sweep < maxJacobiSweeps && !converged; sweep++ {
		rotated := false
		for p := 0; p < n-1; p++ {
			for q := p + 1; q < n; q++ {
				apq := a[p*n+q]
				if math.Abs(apq) <= tol {
					continue
				}
				rotated = true
				rotate(a, v, n, p, q, apq)
			}
		}
		converged = !rotated
	}
	if !converged {
		return nil, nil, errNoConvergence
	}

	// Sort the eigenpairs by decreasing eigenvalue, stable in the index.
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return a[idx[i]*n+idx[i]] > a[idx[j]*n+idx[j]] })
	vals = make([]float64, n)
	vecs = make([]float64, n*n)
	for k, i := range idx {
		vals[k] = a[i*n+i]
		for r := 0; r < n; r++ {
			vecs[r*n+k] = v[r*n+i]
		}
	}
	return vals, vecs, nil
}

// rotate applies the Jacobi rotation J(p, q, θ) that zeroes a_pq:
// a ← JᵀaJ and v ← vJ, with t = tan θ the smaller root of
// t² + 2τt − 1 = 0, τ = (a_qq − a_pp)/(2a_pq).
func rotate(a, v []float64, n, p, q int, apq float64) {
	tau := (a[q*n+q] - a[p*n+p]) / (2 * apq)
	var t float64
	if math.Abs(tau) > 1e150 {
		t = 0.5 / tau // τ² would overflow; t ≈ 1/(2τ)
	} else {
		t = 1 / (math.Abs(tau) + math.Sqrt(float64(tau*tau)+1))
		if tau < 0 {
			t = -t
		}
	}
	c := 1 / math.Sqrt(float64(t*t)+1)
	s := float64(t * c)
	// Columns p and q (a·J).
	for k := 0; k < n; k++ {
		akp, akq := a[k*n+p], a[k*n+q]
		a[k*n+p] = float64(c*akp) - float64(s*akq)
		a[k*n+q] = float64(s*akp) + float64(c*akq)
	}
	// Rows p and q (Jᵀ·a).
	rp, rq := a[p*n:(p+1)*n], a[q*n:(q+1)*n]
	for k := range rp {
		apk, aqk := rp[k], rq[k]
		rp[k] = float64(c*apk) - float64(s*aqk)
		rq[k] = float64(s*apk) + float64(c*aqk)
	}
	a[p*n+q], a[q*n+p] = 0, 0
	for k := 0; k < n; k++ {
		vkp, vkq := v[k*n+p], v[k*n+q]
		v[k*n+p] = float64(c*vkp) - float64(s*vkq)
		v[k*n+q] = float64(s*vkp) + float64(c*vkq)
	}
}
