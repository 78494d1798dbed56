package featmap

import (
	"errors"
	"math"
	"sort"
)

// maxQLIterations bounds the implicit QL iterations spent on one eigenvalue
// (LAPACK's dsteqr allows 30; two or three are typical).
const maxQLIterations = 60

// errNoConvergence is returned by eigSym when an eigenvalue has not
// converged after maxQLIterations QL steps (not seen on finite input; it
// guards against an endless loop).
var errNoConvergence = errors.New("featmap: symmetric eigensolver did not converge")

// eigSym computes the eigendecomposition a = U·diag(vals)·Uᵀ of the
// symmetric n×n row-major matrix a (its lower triangle is read; a is not
// modified) by the EISPACK route of JAMA's EigenvalueDecomposition (public
// domain): Householder reduction to tridiagonal form with the
// transformations accumulated (tred2), then the implicit QL method with
// Wilkinson-type shifts (tql2). The eigenvalues carry an absolute error of a
// few ε·‖a‖, the eigenvectors are orthonormal to a few ε. vals is sorted in
// decreasing order (ties in the order tql2 leaves them); vecs is n×n
// row-major with column k the eigenvector of vals[k].
//
// The orthogonal factor is kept transposed (w = Vᵀ, so that every inner
// loop runs along a row), every product that feeds an addition is rounded on
// its own (float64(a*b), never fused into an FMA), hypot is computed here
// rather than by math.Hypot (assembly on some architectures), and the loops
// run in a fixed order: the result has the same bits on every architecture
// and SIMD path. Cost: about 4n³/3 + 3n³ multiply–adds (≈ 1–3 s at n = 1000
// on one core), memory n² + O(n) floats. The input must be finite (the
// caller checks it).
func eigSym(a []float64, n int) (vals, vecs []float64, err error) {
	w := append([]float64(nil), a[:n*n]...) // w[j*n+k] is V[k][j]
	d := make([]float64, n)
	e := make([]float64, n)
	tred2(w, d, e, n)
	if err := tql2(w, d, e, n); err != nil {
		return nil, nil, err
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return d[idx[i]] > d[idx[j]] })
	vals = make([]float64, n)
	vecs = make([]float64, n*n)
	for k, i := range idx {
		vals[k] = d[i]
		for r := 0; r < n; r++ {
			vecs[r*n+k] = w[i*n+r]
		}
	}
	return vals, vecs, nil
}

// tred2 is JAMA's Householder tridiagonalisation with every V[k][j]
// written w[j*n+k]. On return d is the diagonal, e[1:] the subdiagonal and
// w the transposed orthogonal factor.
func tred2(w, d, e []float64, n int) {
	for j := 0; j < n; j++ {
		d[j] = w[j*n+n-1]
	}
	for i := n - 1; i > 0; i-- {
		var scale, h float64
		for k := 0; k < i; k++ {
			scale += math.Abs(d[k])
		}
		if scale == 0 {
			e[i] = d[i-1]
			for j := 0; j < i; j++ {
				d[j] = w[j*n+i-1]
				w[j*n+i] = 0
				w[i*n+j] = 0
			}
			d[i] = h
			continue
		}
		for k := 0; k < i; k++ {
			d[k] /= scale
			h += float64(d[k] * d[k])
		}
		f := d[i-1]
		g := math.Sqrt(h)
		if f > 0 {
			g = -g
		}
		e[i] = float64(scale * g)
		h -= float64(f * g)
		d[i-1] = f - g
		for j := 0; j < i; j++ {
			e[j] = 0
		}
		for j := 0; j < i; j++ {
			f = d[j]
			wj := w[j*n : j*n+i]
			w[i*n+j] = f
			g = e[j] + float64(wj[j]*f)
			for k := j + 1; k <= i-1; k++ {
				g += float64(wj[k] * d[k])
				e[k] += float64(wj[k] * f)
			}
			e[j] = g
		}
		f = 0
		for j := 0; j < i; j++ {
			e[j] /= h
			f += float64(e[j] * d[j])
		}
		hh := f / (h + h)
		for j := 0; j < i; j++ {
			e[j] -= float64(hh * d[j])
		}
		for j := 0; j < i; j++ {
			f = d[j]
			g = e[j]
			wj := w[j*n : j*n+i]
			for k := j; k <= i-1; k++ {
				wj[k] -= float64(f*e[k]) + float64(g*d[k])
			}
			d[j] = w[j*n+i-1]
			w[j*n+i] = 0
		}
		d[i] = h
	}
	// Accumulate the transformations.
	for i := 0; i < n-1; i++ {
		w[i*n+n-1] = w[i*n+i]
		w[i*n+i] = 1
		h := d[i+1]
		wi1 := w[(i+1)*n : (i+1)*n+i+1]
		if h != 0 {
			for k := 0; k <= i; k++ {
				d[k] = wi1[k] / h
			}
			for j := 0; j <= i; j++ {
				wj := w[j*n : j*n+i+1]
				var g float64
				for k := 0; k <= i; k++ {
					g += float64(wi1[k] * wj[k])
				}
				for k := 0; k <= i; k++ {
					wj[k] -= float64(g * d[k])
				}
			}
		}
		for k := 0; k <= i; k++ {
			wi1[k] = 0
		}
	}
	for j := 0; j < n; j++ {
		d[j] = w[j*n+n-1]
		w[j*n+n-1] = 0
	}
	w[(n-1)*n+n-1] = 1
	e[0] = 0
}

// tql2 is JAMA's implicit QL on the tridiagonal (d, e) from tred2,
// accumulating the rotations into the transposed factor w.
func tql2(w, d, e []float64, n int) error {
	for i := 1; i < n; i++ {
		e[i-1] = e[i]
	}
	e[n-1] = 0
	var f, tst1 float64
	const eps = 0x1p-52
	for l := 0; l < n; l++ {
		tst1 = max(tst1, math.Abs(d[l])+math.Abs(e[l]))
		m := l
		for m < n-1 && math.Abs(e[m]) > eps*tst1 {
			m++
		}
		for iter := 0; m > l; iter++ {
			if iter == maxQLIterations {
				return errNoConvergence
			}
			g := d[l]
			p := (d[l+1] - g) / (2 * e[l])
			r := hypot(p, 1)
			if p < 0 {
				r = -r
			}
			d[l] = e[l] / (p + r)
			d[l+1] = float64(e[l] * (p + r))
			dl1 := d[l+1]
			h := g - d[l]
			for i := l + 2; i < n; i++ {
				d[i] -= h
			}
			f += h
			p = d[m]
			c, c2, c3 := 1.0, 1.0, 1.0
			el1 := e[l+1]
			var s, s2 float64
			for i := m - 1; i >= l; i-- {
				c3 = c2
				c2 = c
				s2 = s
				g = float64(c * e[i])
				h = float64(c * p)
				r = hypot(p, e[i])
				e[i+1] = float64(s * r)
				s = e[i] / r
				c = p / r
				p = float64(c*d[i]) - float64(s*g)
				d[i+1] = h + float64(s*(float64(c*g)+float64(s*d[i])))
				wi, wi1 := w[i*n:(i+1)*n], w[(i+1)*n:(i+2)*n]
				for k := range wi {
					hk := wi1[k]
					wi1[k] = float64(s*wi[k]) + float64(c*hk)
					wi[k] = float64(c*wi[k]) - float64(s*hk)
				}
			}
			p = -s * s2 * c3 * el1 * e[l] / dl1
			e[l] = float64(s * p)
			d[l] = float64(c * p)
			if !(math.Abs(e[l]) > eps*tst1) {
				break
			}
		}
		d[l] += f
		e[l] = 0
	}
	return nil
}

// hypot is √(p² + q²) without undue overflow, in plain Go (math.Hypot is
// assembly on some architectures).
func hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	t := q / p
	return p * math.Sqrt(1+float64(t*t))
}
