// Package featmap holds random Fourier feature maps and explicit kernel
// feature maps. Every map writes into caller-owned, row-major buffers with
// strides, allocates nothing per call on one goroutine, and is safe for
// concurrent use once built.
//
// The random maps share one kernel family: for a row x they compute
// z_j = s·cos(b_j + Σ_k x_k·W_kj) (AVX-512, AVX2, NEON or the pure-Go twin).
// TransformRow uses asm.CosAffine, with the dot products in registers;
// Transform uses asm.CosAffineRows, which blocks rows so that one load of W
// feeds the FMAs of several rows, writes the dot products of a few rows into
// dst itself and takes their cosines in place while they are in cache (no
// separate n×D buffer). Both keep the same chain for each element (b_j, then
// one FMA per k in k order), so results are bit-identical on every path, for
// any GOMAXPROCS, and between Transform and TransformRow.
//
// Nystrom is the data-dependent alternative for the Gaussian kernel: the
// features are the kernel values against m landmarks drawn from the data,
// whitened by the eigendecomposition of the landmarks' kernel matrix (a
// Householder–QL solver of this package, in plain Go, with the same bits
// everywhere).
package featmap

import (
	"errors"
	"fmt"
	"math"
)

// Matrix is a row-major view: element (i, j) is Data[i*Stride+j].
type Matrix struct {
	Rows, Cols, Stride int
	Data               []float64
}

// Dense returns a Rows×Cols matrix with Stride = Cols over data.
func Dense(rows, cols int, data []float64) Matrix {
	return Matrix{Rows: rows, Cols: cols, Stride: cols, Data: data}
}

// Row returns row i (Cols elements). It panics if i is out of range or
// the view is malformed (see Check).
func (m Matrix) Row(i int) []float64 { return m.Data[i*m.Stride : i*m.Stride+m.Cols] }

// check reports a malformed view, with an error wrapping ErrShape (one
// "featmap:" prefix, ErrShape's).
func (m Matrix) check(name string) error {
	switch {
	case m.Rows < 0 || m.Cols < 0:
		return fmt.Errorf("%w: %s has negative shape %d×%d", ErrShape, name, m.Rows, m.Cols)
	case m.Rows > 0 && m.Stride < m.Cols:
		return fmt.Errorf("%w: %s stride %d is below its %d columns", ErrShape, name, m.Stride, m.Cols)
	case m.Rows > 0 && m.Stride > 0 && m.Rows-1 > (math.MaxInt-m.Cols)/m.Stride:
		return fmt.Errorf("%w: %s is %d×%d with stride %d: too large", ErrShape, name, m.Rows, m.Cols, m.Stride)
	case m.Rows > 0 && len(m.Data) < (m.Rows-1)*m.Stride+m.Cols:
		return fmt.Errorf("%w: %s needs %d elements, has %d", ErrShape, name, (m.Rows-1)*m.Stride+m.Cols, len(m.Data))
	}
	return nil
}

// Check reports, with an error wrapping ErrShape, a view whose shape is
// negative, whose stride is below its columns, whose extent
// (Rows−1)·Stride + Cols overflows an int, or whose Data is shorter than
// that extent. A view that passes can be read with Row(i) for every
// 0 ≤ i < Rows without a panic.
func (m Matrix) Check() error { return m.check("X") }

// ErrShape is wrapped by every shape error of Transform.
var ErrShape = errors.New("featmap: shape mismatch")

func checkTransform(dst, X Matrix, inputs, outputs int) error {
	if err := X.check("X"); err != nil {
		return err
	}
	if err := dst.check("dst"); err != nil {
		return err
	}
	if X.Cols != inputs {
		return fmt.Errorf("%w: X has %d columns, the map takes %d inputs", ErrShape, X.Cols, inputs)
	}
	if dst.Rows != X.Rows || dst.Cols != outputs {
		return fmt.Errorf("%w: dst is %d×%d, want %d×%d", ErrShape, dst.Rows, dst.Cols, X.Rows, outputs)
	}
	return nil
}
