package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAffineRowsMatchesTwin: every element of AffineRows is the scalar
// chain b[j] + Σ_k x_k·W_kj (FMAs in k order), on every path, over row
// counts that exercise every block size, widths with and without a partial
// panel, every panel start lo, strides larger than the shapes, slices that
// start at odd offsets, panels re-packed in place (Pack) and special values
// (NaN, ±Inf, huge). Nothing outside columns [lo, D) of each dst row may be
// written. The phases are also those of CosAffineRows: its output is
// CosAffine of them at d = 0.
func TestAffineRowsMatchesTwin(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 8))
		var reuse *AffinePanels
		for _, d := range []int{0, 1, 2, 3, 7, 18, 64, 101} {
			for _, D := range []int{0, 1, 5, 23, 24, 25, 48, 71, 101, 300} {
				for _, n := range []int{0, 1, 3, 7, 8, 9, 15, 24, 31} {
					wild := 0.0
					if r.IntN(3) == 0 {
						wild = 0.03
					}
					reuse = checkAffineRows(t, r, reuse, n, d, D, wild)
				}
			}
		}
	})
}

func checkAffineRows(t *testing.T, r *rand.Rand, reuse *AffinePanels, n, d, D int, wild float64) *AffinePanels {
	t.Helper()
	ldw, ldx, ldd := D+r.IntN(3), d+r.IntN(3), D+r.IntN(3)
	_, w, b := randAffine(r, d, D, ldw, wild)
	off := r.IntN(2) // an odd start: unaligned rows
	xb := make([]float64, off+max(0, (n-1)*ldx+d))
	x := xb[off:]
	for i := range x {
		x[i] = r.NormFloat64()
		if r.Float64() < wild {
			x[i] = specials[r.IntN(len(specials))]
		}
	}
	var a *AffinePanels
	if r.IntN(2) == 0 {
		a = NewAffinePanels(w, d, D, ldw)
	} else {
		a = reuse.Pack(w, d, D, ldw) // over panels of another shape: stale values must not leak
		reuse = a
	}
	lo := affinePanel * r.IntN(D/affinePanel+1)
	buf := make([]float64, max(0, (n-1)*ldd+D)+2+off)
	for i := range buf {
		buf[i] = guard
	}
	dst := buf[1+off : len(buf)-1]
	AffineRows(dst, ldd, x, ldx, n, a, b, lo)
	tag := fmt.Sprintf("n=%d d=%d D=%d lo=%d ldx=%d ldw=%d ldd=%d off=%d", n, d, D, lo, ldx, ldw, ldd, off)
	want := make([]float64, D)
	for i := 0; i < n; i++ {
		affineRowRef(want, x[i*ldx:i*ldx+d], w, b, ldw, lo)
		for j := 0; j < ldd && i*ldd+j < len(dst); j++ {
			got := dst[i*ldd+j]
			if j < lo || j >= D {
				if got != guard {
					t.Fatalf("%s: wrote [%d,%d] outside [lo, D)", tag, i, j)
				}
				continue
			}
			if !sameBits(got, want[j]) {
				t.Fatalf("%s: [%d,%d] got %v want %v", tag, i, j, got, want[j])
			}
		}
	}
	if buf[off] != guard || buf[len(buf)-1] != guard {
		t.Fatalf("%s: wrote outside dst", tag)
	}
	if lo == 0 && n > 0 && D > 0 && wild == 0 {
		const scale = 0.0625
		got := make([]float64, n*D)
		CosAffineRows(got, D, x, ldx, n, a, b, scale)
		c := make([]float64, D)
		for i := 0; i < n; i++ {
			CosAffine(c, nil, nil, dst[i*ldd:i*ldd+D], D, scale)
			for j := range c {
				if !sameBits(c[j], got[i*D+j]) {
					t.Fatalf("%s: cos of the phase [%d,%d] %v, CosAffineRows %v", tag, i, j, c[j], got[i*D+j])
				}
			}
		}
	}
	return reuse
}

// TestAffineRowsNaN: a NaN in x or W reaches exactly the entries whose
// chains contain it, on every path.
func TestAffineRowsNaN(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		n, d, D := 11, 5, 50
		x := make([]float64, n*d)
		w := make([]float64, d*D)
		for i := range x {
			x[i] = 1
		}
		for i := range w {
			w[i] = 0.5
		}
		x[3*d+2] = math.NaN()  // row 3
		w[4*D+30] = math.NaN() // column 30
		dst := make([]float64, n*D)
		AffineRows(dst, D, x, d, n, NewAffinePanels(w, d, D, D), make([]float64, D), 0)
		for i := 0; i < n; i++ {
			for j := 0; j < D; j++ {
				if isNaN := math.IsNaN(dst[i*D+j]); isNaN != (i == 3 || j == 30) {
					t.Fatalf("[%d,%d] = %v", i, j, dst[i*D+j])
				}
			}
		}
	})
}

func TestAffineRowsPanicsOnBadShapes(t *testing.T) {
	a := NewAffinePanels(make([]float64, 2*30), 2, 30, 30)
	ok := func(dst []float64, ldd int, x []float64, ldx, n int, b []float64, lo int) func() {
		return func() { AffineRows(dst, ldd, x, ldx, n, a, b, lo) }
	}
	f := make([]float64, 60)
	AffineRows(f, 30, f[:4], 2, 2, a, f[:30], 24) // valid
	bad := []func(){
		ok(f, 30, f[:4], 2, 2, f[:29], 0),      // len(b) ≠ D
		ok(f[:59], 30, f[:4], 2, 2, f[:30], 0), // dst short
		ok(f, 30, f[:3], 2, 2, f[:30], 0),      // x short
		ok(f, 29, f[:4], 2, 2, f[:30], 0),      // ldd < D
		ok(f, 30, f[:4], 1, 2, f[:30], 0),      // ldx < d
		ok(f, 30, f[:4], 2, 2, f[:30], 5),      // lo not a panel start
		ok(f, 30, f[:4], 2, 2, f[:30], 48),     // lo > D
		ok(f, 30, f[:4], 2, -1, f[:30], 0),     // n < 0
		func() { a.Pack(make([]float64, 5), 2, 3, 3) },
	}
	for i, fn := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("case %d: no panic", i)
				}
			}()
			fn()
		}()
	}
}
