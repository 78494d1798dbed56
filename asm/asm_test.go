package asm_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/asm"
	iasm "github.com/rfkit/rfkit/internal/asm"
)

// TestSameBitsAsInternal: each public kernel is its internal twin, to the
// bit (the internal package's tests hold the paths and the accuracy).
func TestSameBitsAsInternal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 37)
	w := make([]float64, 37*5)
	x32 := make([]float32, 37)
	for i := range x {
		x[i] = 40 * (r.Float64() - 0.5)
		x32[i] = float32(x[i])
	}
	for i := range w {
		w[i] = r.NormFloat64()
	}
	b := w[:5]
	same := func(name string, a, c []float64) {
		t.Helper()
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(c[i]) {
				t.Fatalf("%s[%d] = %v, internal %v", name, i, a[i], c[i])
			}
		}
	}
	got, want := make([]float64, len(x)), make([]float64, len(x))
	asm.CosAffine(got[:5], x[:7], w, b, 5, 0.5)
	iasm.CosAffine(want[:5], x[:7], w, b, 5, 0.5)
	same("CosAffine", got[:5], want[:5])
	if g, c := asm.DotF64(w[:37], x), iasm.DotF64(w[:37], x); math.Float64bits(g) != math.Float64bits(c) {
		t.Errorf("DotF64 = %v, internal %v", g, c)
	}
	if g, c := asm.DotF32(w[:37], x32), iasm.DotF32(w[:37], x32); math.Float64bits(g) != math.Float64bits(c) {
		t.Errorf("DotF32 = %v, internal %v", g, c)
	}
	y1, y2 := slices.Clone(w[:37]), slices.Clone(w[:37])
	asm.AxpyF64(0.3, x, y1)
	iasm.AxpyF64(0.3, x, y2)
	same("AxpyF64", y1, y2)
	asm.AxpyF32(0.3, x32, y1)
	iasm.AxpyF32(0.3, x32, y2)
	same("AxpyF32", y1, y2)
	mean, scale := w[:37], make([]float64, 37)
	for i := range scale {
		scale[i] = 1 + float64(i)
	}
	asm.Standardize(got, x, mean, scale)
	iasm.Standardize(want, x, mean, scale)
	same("Standardize", got, want)
	if asm.Selected() != iasm.Selected() || !slices.Equal(asm.Paths(), iasm.Paths()) {
		t.Errorf("Selected/Paths differ: %v %v, internal %v %v", asm.Selected(), asm.Paths(), iasm.Selected(), iasm.Paths())
	}
}
