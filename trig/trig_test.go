package trig

import (
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/cpu"
)

func TestMain(m *testing.M) {
	p, err := cpu.ParsePath(asm.Selected())
	if err == nil {
		err = cpu.CheckRequired(p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "trig:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// TestForwarding checks each function against its asm kernel on every path
// (the kernels themselves are tested in package asm).
func TestForwarding(t *testing.T) {
	x := []float64{-1e6, -3, -0.5, 0, 0.25, 2, 7, 1e10, math.NaN(), math.Inf(1), 700, -720}
	for _, p := range asm.Paths() {
		restore, err := asm.SetPath(p)
		if err != nil {
			t.Fatal(err)
		}
		got, want := make([]float64, len(x)), make([]float64, len(x))
		s2 := make([]float64, len(x))
		for _, c := range []struct {
			name      string
			pub, base func(d, x []float64)
		}{
			{"Cos", Cos, asm.Cos}, {"Sin", Sin, asm.Sin}, {"Exp", Exp, asm.Exp},
			{"Sincos", func(d, x []float64) { Sincos(d, s2, x) }, func(d, x []float64) { asm.Sin(d, x) }},
		} {
			c.pub(got, x)
			c.base(want, x)
			for i := range x {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Errorf("%s/%s(%v) = %v, want %v", p, c.name, x[i], got[i], want[i])
				}
			}
		}
		restore()
	}
}
