package solvers

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRowKernelsMatchLoops checks that dotRows8 and axpyRows4, which
// Logistic's evaluation uses, give the bits of dot and axpy row by row, for
// lengths around the unrolling and with values whose sums round.
func TestRowKernelsMatchLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	val := func() float64 { return (rng.Float64() - 0.5) * math.Exp2(float64(rng.IntN(40)-20)) }
	for d := 1; d <= 19; d++ {
		w, x := make([]float64, d), make([]float64, 8*d)
		for i := range w {
			w[i] = val()
		}
		for i := range x {
			x[i] = val()
		}
		got := dotRows8(w, x)
		for q := range 8 {
			if want := dot(w, x[q*d:(q+1)*d]); math.Float64bits(got[q]) != math.Float64bits(want) {
				t.Fatalf("d=%d row %d: dotRows8 %v, dot %v", d, q, got[q], want)
			}
		}
		r := []float64{val(), val(), val(), val()}
		y1, y2 := make([]float64, d), make([]float64, d)
		for i := range y1 {
			y1[i] = val()
			y2[i] = y1[i]
		}
		axpyRows4(r, x[:4*d], y1)
		for q := range 4 {
			axpy(r[q], x[q*d:(q+1)*d], y2)
		}
		for j := range y1 {
			if math.Float64bits(y1[j]) != math.Float64bits(y2[j]) {
				t.Fatalf("d=%d element %d: axpyRows4 %v, four axpy %v", d, j, y1[j], y2[j])
			}
		}
	}
}
