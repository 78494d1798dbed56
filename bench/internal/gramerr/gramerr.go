// Package gramerr measures how well a feature map approximates the
// Gaussian kernel: the exact kernel rows and the mean squared error
// (1/N²)‖K − ZZᵀ‖²_F, shared by the PRFF reproduction commands.
package gramerr

import (
	"math"
	"runtime"
	"sync"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
)

// Transformer is a feature map: RFF or Nyström.
type Transformer interface {
	Outputs() int
	Transform(dst, X featmap.Matrix) error
}

// KernelRows returns the upper triangle of exp(−γ‖x_i − x_l‖²), row i
// holding l = i..N−1.
func KernelRows(X featmap.Matrix, gamma float64) [][]float64 {
	n := X.Rows
	K := make([][]float64, n)
	parallelRows(n, func(i int) {
		xi := X.Row(i)
		row := make([]float64, n-i)
		for l := i; l < n; l++ {
			var s float64
			for k, v := range X.Row(l) {
				t := xi[k] - v
				s += t * t
			}
			row[l-i] = math.Exp(-gamma * s)
		}
		K[i] = row
	})
	return K
}

// Error is (1/N²) Σ_{i,l} (K_il − z(x_i)·z(x_l))², over i ≤ l. The dot
// products go through asm.DotF64 (16 lanes): at N = 10⁴ and D = 1000 a
// scalar loop, one dependent FMA chain, took about an hour of CPU per
// figure; the result differs from it only by rounding.
func Error(K [][]float64, X featmap.Matrix, f Transformer) (float64, error) {
	n, D := X.Rows, f.Outputs()
	z := make([]float64, n*D)
	if err := f.Transform(featmap.Dense(n, D, z), X); err != nil {
		return 0, err
	}
	part := make([]float64, n)
	parallelRows(n, func(i int) {
		zi := z[i*D : (i+1)*D]
		var s float64
		for l := i; l < n; l++ {
			e := K[i][l-i] - asm.DotF64(zi, z[l*D:(l+1)*D])
			if l == i {
				s += e * e
			} else {
				s += 2 * e * e
			}
		}
		part[i] = s
	})
	var tot float64
	for _, v := range part {
		tot += v
	}
	return tot / float64(n) / float64(n), nil
}

// parallelRows calls f(i) for i < n on GOMAXPROCS goroutines.
func parallelRows(n int, f func(i int)) {
	g := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < g; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += g {
				f(i)
			}
		}()
	}
	wg.Wait()
}
