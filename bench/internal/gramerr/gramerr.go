// Package gramerr measures how well a feature map approximates the
// Gaussian kernel: the exact kernel rows and the mean squared error
// (1/N²)‖K − ZZᵀ‖²_F, shared by the PRFF reproduction commands.
package gramerr

import (
	"math"
	"runtime"
	"sync"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
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
// products go through asm.DotF64 (16 lanes), and rows i are taken in
// blocks of errBlock so that each z_l is read from memory once per block
// rather than once per row: at N = 10⁴ and D = 1000 Z is 80 MB, and the
// row-at-a-time loop streamed it N times (memory-bound, over an hour of CPU
// per figure). Each row's sum still runs over l in ascending order, so the
// blocking does not change the result.
func Error(K [][]float64, X featmap.Matrix, f Transformer) (float64, error) {
	n, D := X.Rows, f.Outputs()
	z := make([]float64, n*D)
	if err := f.Transform(featmap.Dense(n, D, z), X); err != nil {
		return 0, err
	}
	part := make([]float64, n)
	blocks := (n + errBlock - 1) / errBlock
	parallelRows(blocks, func(b int) {
		i0, i1 := b*errBlock, min(n, (b+1)*errBlock)
		sums := part[i0:i1]
		for l := i0; l < n; l++ {
			zl := z[l*D : (l+1)*D]
			for i := i0; i < min(i1, l+1); i++ {
				e := K[i][l-i] - asm.DotF64(z[i*D:(i+1)*D], zl)
				if l == i {
					sums[i-i0] += e * e
				} else {
					sums[i-i0] += 2 * e * e
				}
			}
		}
	})
	var tot float64
	for _, v := range part {
		tot += v
	}
	return tot / float64(n) / float64(n), nil
}

// errBlock rows of Z (at D = 1000, 512 KB) stay in cache while every later
// row streams past them once.
const errBlock = 64

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
