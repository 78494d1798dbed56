package asm

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randAffine(r *rand.Rand, d, D, ldw int, wild float64) (x, w, b []float64) {
	x = make([]float64, d)
	w = make([]float64, max(0, (d-1)*ldw+D))
	b = make([]float64, D)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	for i := range w {
		w[i] = r.NormFloat64() / math.Sqrt(float64(d))
		if r.Float64() < wild {
			w[i] = specials[r.IntN(len(specials))]
		}
	}
	for i := range b {
		b[i] = r.Float64() * 2 * math.Pi
	}
	return
}

func TestCosAffineMatchesTwin(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(4, 2))
		for _, d := range []int{0, 1, 2, 3, 7, 10, 33, 100} {
			for D := 0; D <= 41; D++ {
				for _, wild := range []float64{0, 0.05} {
					ldw := D + r.IntN(3)
					x, w, b := randAffine(r, d, D, ldw, wild)
					const scale = 0.0625
					buf := make([]float64, D+2)
					buf[0], buf[D+1] = guard, guard
					dst := buf[1 : D+1]
					CosAffine(dst, x, w, b, ldw, scale)
					for j := range b {
						want := cosAffineRef(x, w, b[j], j, ldw, scale)
						if !sameBits(dst[j], want) {
							t.Fatalf("d=%d D=%d ldw=%d j=%d: got %v want %v", d, D, ldw, j, dst[j], want)
						}
					}
					if buf[0] != guard || buf[D+1] != guard {
						t.Fatalf("d=%d D=%d: wrote outside dst", d, D)
					}
				}
			}
		}
	})
}

// TestCosAffineFormula compares with the plain formula in float64 with
// math.Cos: the only differences are the rounding of the FMA chain against a
// plain multiply-add loop (≤ d ulps of the largest partial sum) and cos's own
// error, so |Δ| ≤ scale·(d+2)·2^-52·(|b|+Σ|x_k w_kj|) + 2 ulps is a bound.
func TestCosAffineFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	d, D := 20, 300
	x, w, b := randAffine(r, d, D, D, 0)
	dst := make([]float64, D)
	CosAffine(dst, x, w, b, D, math.Sqrt(2.0/float64(D)))
	for j := range b {
		s, mag := b[j], math.Abs(b[j])
		for k := range x {
			s += x[k] * w[k*D+j]
			mag += math.Abs(x[k] * w[k*D+j])
		}
		want := math.Sqrt(2.0/float64(D)) * math.Cos(s)
		tol := math.Sqrt(2.0/float64(D)) * (float64(d+2)*mag*0x1p-52 + 0x1p-51)
		if math.Abs(dst[j]-want) > tol {
			t.Fatalf("j=%d: got %v want %v (tol %g)", j, dst[j], want, tol)
		}
	}
}

func TestCosAffinePanicsOnBadShapes(t *testing.T) {
	bad := []func(){
		func() {
			CosAffine(make([]float64, 2), make([]float64, 2), make([]float64, 6), make([]float64, 3), 3, 1)
		},
		func() {
			CosAffine(make([]float64, 3), make([]float64, 2), make([]float64, 5), make([]float64, 3), 3, 1)
		},
		func() {
			CosAffine(make([]float64, 3), make([]float64, 2), make([]float64, 6), make([]float64, 3), 2, 1)
		},
	}
	for i, f := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("case %d: no panic", i)
				}
			}()
			f()
		}()
	}
}
