package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCosAffineRowsMatchesTwin: every element of CosAffineRows is the twin's
// bits, on every path, with the blocked kernel forced on and off, over row
// counts that exercise every block size (8, 4, 2, 1), widths with and without
// a partial panel, strides larger than the shapes, and special values in x
// and W (NaN, ±Inf, huge phases that leave the fast cos domain), and rows
// long enough to be cut into chunks. Nothing
// outside the D columns of each dst row may be written.
func TestCosAffineRowsMatchesTwin(t *testing.T) {
	defer func(v int) { affineMinD = v }(affineMinD)
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 4))
		for _, minD := range []int{1, 1 << 30} {
			affineMinD = minD
			for _, d := range []int{0, 1, 2, 3, 7, 10, 18, 33, 100} {
				for _, D := range []int{0, 1, 5, 8, 23, 24, 25, 47, 48, 71, 100, 815} { // 815: two chunks (17 + 16 panels) and a partial panel
					for _, n := range []int{0, 1, 3, 7, 8, 9, 15, 23} {
						wild := 0.0
						if r.IntN(3) == 0 {
							wild = 0.03
						}
						checkCosAffineRows(t, r, n, d, D, wild, fmt.Sprintf("minD=%d", minD))
					}
				}
			}
		}
	})
}

func checkCosAffineRows(t *testing.T, r *rand.Rand, n, d, D int, wild float64, tag string) {
	t.Helper()
	ldw, ldx, ldd := D+r.IntN(3), d+r.IntN(3), D+r.IntN(3)
	_, w, b := randAffine(r, d, D, ldw, wild)
	x := make([]float64, max(0, (n-1)*ldx+d))
	for i := range x {
		x[i] = r.NormFloat64()
		if r.Float64() < wild {
			x[i] = specials[r.IntN(len(specials))]
		}
	}
	a := NewAffinePanels(w, d, D, ldw)
	const scale = 0.0625
	buf := make([]float64, max(0, (n-1)*ldd+D)+2)
	for i := range buf {
		buf[i] = guard
	}
	dst := buf[1 : len(buf)-1]
	CosAffineRows(dst, ldd, x, ldx, n, a, b, scale)
	for i := 0; i < n; i++ {
		for j := 0; j < D; j++ {
			want := cosAffineRef(x[i*ldx:i*ldx+d], w, b[j], j, ldw, scale)
			if got := dst[i*ldd+j]; !sameBits(got, want) {
				t.Fatalf("%s n=%d d=%d D=%d ldx=%d ldw=%d ldd=%d: [%d,%d] got %v want %v", tag, n, d, D, ldx, ldw, ldd, i, j, got, want)
			}
		}
		for j := D; j < ldd && i*ldd+j < len(dst); j++ {
			if dst[i*ldd+j] != guard {
				t.Fatalf("%s n=%d d=%d D=%d: wrote [%d,%d] past the row", tag, n, d, D, i, j)
			}
		}
	}
	if buf[0] != guard || buf[len(buf)-1] != guard {
		t.Fatalf("%s n=%d d=%d D=%d: wrote outside dst", tag, n, d, D)
	}
}

// TestCosAffineRowsHugePhases: rows whose phases leave cos's fast domain go
// through the twin's fallback inside the in-place cos pass.
func TestCosAffineRowsHugePhases(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(12, 5))
		for _, d := range []int{3, 40} {
			n, D := 13, 50
			_, w, b := randAffine(r, d, D, D, 0)
			for i := range w {
				w[i] *= 1e7
			}
			x := make([]float64, n*d)
			for i := range x {
				x[i] = r.NormFloat64()
			}
			a := NewAffinePanels(w, d, D, D)
			dst := make([]float64, n*D)
			CosAffineRows(dst, D, x, d, n, a, b, 1)
			for i := 0; i < n; i++ {
				for j := 0; j < D; j++ {
					want := cosAffineRef(x[i*d:(i+1)*d], w, b[j], j, D, 1)
					if !sameBits(dst[i*D+j], want) {
						t.Fatalf("d=%d [%d,%d]: got %v want %v", d, i, j, dst[i*D+j], want)
					}
				}
			}
			if math.Abs(dst[0]) > 1 {
				t.Fatalf("cos out of range: %v", dst[0])
			}
		}
	})
}

func TestCosAffineRowsPanicsOnBadShapes(t *testing.T) {
	a := NewAffinePanels(make([]float64, 6), 2, 3, 3)
	bad := []func(){
		func() { CosAffineRows(make([]float64, 6), 3, make([]float64, 4), 2, 2, a, make([]float64, 2), 1) }, // len(b) ≠ D
		func() { CosAffineRows(make([]float64, 5), 3, make([]float64, 4), 2, 2, a, make([]float64, 3), 1) }, // dst short
		func() { CosAffineRows(make([]float64, 6), 3, make([]float64, 3), 2, 2, a, make([]float64, 3), 1) }, // x short
		func() { CosAffineRows(make([]float64, 6), 2, make([]float64, 4), 2, 2, a, make([]float64, 3), 1) }, // ldd < D
		func() { CosAffineRows(make([]float64, 6), 3, make([]float64, 4), 1, 2, a, make([]float64, 3), 1) }, // ldx < d
		func() { NewAffinePanels(make([]float64, 5), 2, 3, 3) },
		func() { NewAffinePanels(make([]float64, 6), 2, 3, 2) },
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
