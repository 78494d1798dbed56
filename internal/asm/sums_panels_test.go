package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// toPanels copies column-major mat (d rows, row stride ld, n elements) into
// panels of panelLen elements, padding the last panel with junk that a
// correct kernel never reads into a result.
func toPanels(r *rand.Rand, mat []float64, d, n, ld int) []float64 {
	np := (n + panelLen - 1) / panelLen
	xp := make([]float64, np*panelLen*d)
	for i := range xp {
		xp[i] = r.NormFloat64() * 1e300 // junk: would show in any sum
	}
	for k := 0; k < d; k++ {
		for i := 0; i < n; i++ {
			xp[(i/panelLen)*panelLen*d+k*panelLen+i%panelLen] = mat[k*ld+i]
		}
	}
	return xp
}

// TestPanelsMatchColumns: FreqStepSumsPanels and SincosDotPanels give, on
// every path, the bits of FreqStepSums and SincosDot over the same values
// stored column-major on the generic path: lengths around the panel and
// block sizes, several d, special values that make blocks fail the domain
// check (each such panel goes through the one-panel path).
func TestPanelsMatchColumns(t *testing.T) {
	lengths := []int{0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 191, 200, 1000, 4096, 4099}
	forEachPath(t, func(t *testing.T) {
		for li, n := range lengths {
			for _, sp := range []float64{0, 0.002, 0.3} {
				d := (li*5 + int(sp*1000)) % 26
				r := rand.New(rand.NewPCG(uint64(li), uint64(sp*1000)))
				ld := n + r.IntN(3)
				mat := values(r, d*ld+1, 1, sp)
				omega, yt := values(r, d, 1, sp/4), values(r, n, 2, sp)
				b := r.Float64() * 7
				xp := toPanels(r, mat, d, n, ld)

				var acc, wacc [8]float64
				accX, waccX := make([][8]float64, d), make([][8]float64, d)
				s, c := make([]float64, n), make([]float64, n)
				ws, wc := make([]float64, n), make([]float64, n)
				proj, wproj := junk(r, n), junk(r, n)
				FreqStepSumsPanels(proj, yt, xp, omega, b, &acc, accX)
				SincosDotPanels(s, c, xp, omega)
				restore, err := SetPath("generic")
				if err != nil {
					t.Fatal(err)
				}
				FreqStepSums(wproj, yt, mat, ld, omega, b, &wacc, waccX)
				SincosDot(ws, wc, mat, ld, omega)
				restore()
				got := flatten(acc[:], lanes(accX), s, c, proj)
				want := flatten(wacc[:], lanes(waccX), ws, wc, wproj)
				for i := range want {
					if !sameBits(got[i], want[i]) {
						t.Fatalf("n=%d d=%d special=%v: value %d is %v, columns %v", n, d, sp, i, got[i], want[i])
					}
				}
			}
		}
	})
}

// TestPanelsShape: a panel matrix too short for its elements panics with
// the function's name, like the other kernels.
func TestPanelsShape(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("no panic")
		}
	}()
	var acc [8]float64
	FreqStepSumsPanels(make([]float64, 65), make([]float64, 65), make([]float64, 64*3+2*64), make([]float64, 3), 0, &acc, make([][8]float64, 3))
}

// TestPanels32MatchWidened: FreqStepSumsPanels32 and SincosDotPanels32 give,
// on every path, the bits of FreqStepSums and SincosDot (generic path,
// column-major) over the float32 values widened to float64: lengths around
// the panel and block sizes, several d (the heap-widened panel above 32,
// the FreqStep body without a stash above maxStashRows = 64),
// float32 panels that start on an odd 4-byte word, junk padding, and special
// values (NaN, ±Inf, float32 subnormals, values at the float32 limits).
func TestPanels32MatchWidened(t *testing.T) {
	lengths := []int{0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 191, 200, 1000, 4096, 4099}
	specials32 := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e-45, -3e-42, 1.1754942e-38, math.MaxFloat32, -math.MaxFloat32, 0, float32(math.Copysign(0, -1))}
	forEachPath(t, func(t *testing.T) {
		for li, n := range lengths {
			for _, sp := range []float64{0, 0.002, 0.3} {
				d := (li*7 + int(sp*1000)) % 72
				r := rand.New(rand.NewPCG(uint64(li)+100, uint64(sp*1000)))
				np := (n + panelLen - 1) / panelLen
				off := r.IntN(2) // an odd word: not 8-byte aligned
				buf := make([]float32, off+np*panelLen*d)
				for i := range buf {
					buf[i] = float32(r.NormFloat64() * 3e38) // junk: would show in any sum
				}
				xp := buf[off:]
				mat := make([]float64, d*n)
				for k := 0; k < d; k++ {
					for i := 0; i < n; i++ {
						v := float32(r.NormFloat64())
						if r.Float64() < sp {
							v = specials32[r.IntN(len(specials32))]
						}
						xp[(i/panelLen)*panelLen*d+k*panelLen+i%panelLen] = v
						mat[k*n+i] = float64(v)
					}
				}
				omega, yt := values(r, d, 1, sp/4), values(r, n, 2, sp)
				b := r.Float64() * 7

				var acc, wacc [8]float64
				accX, waccX := make([][8]float64, d), make([][8]float64, d)
				s, c := make([]float64, n), make([]float64, n)
				ws, wc := make([]float64, n), make([]float64, n)
				proj, wproj := junk(r, n), junk(r, n)
				FreqStepSumsPanels32(proj, yt, xp, omega, b, &acc, accX)
				SincosDotPanels32(s, c, xp, omega)
				restore, err := SetPath("generic")
				if err != nil {
					t.Fatal(err)
				}
				FreqStepSums(wproj, yt, mat, n, omega, b, &wacc, waccX)
				SincosDot(ws, wc, mat, n, omega)
				restore()
				got := flatten(acc[:], lanes(accX), s, c, proj)
				want := flatten(wacc[:], lanes(waccX), ws, wc, wproj)
				for i := range want {
					if !sameBits(got[i], want[i]) {
						t.Fatalf("n=%d d=%d special=%v off=%d: value %d is %v, widened columns %v", n, d, sp, off, i, got[i], want[i])
					}
				}
			}
		}
	})
}

// TestPanels32Shape: a float32 panel matrix too short for its elements
// panics with the function's name.
func TestPanels32Shape(t *testing.T) {
	for _, f := range []func(){
		func() {
			var acc [8]float64
			FreqStepSumsPanels32(make([]float64, 65), make([]float64, 65), make([]float32, 64*3+2*64), make([]float64, 3), 0, &acc, make([][8]float64, 3))
		},
		func() {
			SincosDotPanels32(make([]float64, 65), make([]float64, 65), make([]float32, 64*3+2*64), make([]float64, 3))
		},
	} {
		panicsNaming(t, "Panels32", f)
	}
}

// panicsNaming fails t unless f panics with a message containing name.
func panicsNaming(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), name) {
			t.Fatalf("panic %v, want one naming %s", r, name)
		}
	}()
	f()
}

// TestFreqStepProjectionIsSincosDot: on every path and in every layout
// (column-major, float64 and float32 panels), Sincos of the projections a
// FreqStep sweep stores gives the bits of the SincosDot sweep at the same
// ω — what lets exploss.FreqStep.Sincos skip its pass over X. Lengths
// around the group, block and panel sizes, d up to 71 (the float32 body
// without a stash above 64), special values (NaN and huge elements, ω
// entries that send projections outside the fast trig domain), unaligned
// outputs.
func TestFreqStepProjectionIsSincosDot(t *testing.T) {
	lengths := []int{0, 1, 7, 8, 9, 63, 64, 65, 129, 200, 1000, 4099}
	forEachPath(t, func(t *testing.T) {
		for li, n := range lengths {
			for _, sp := range []float64{0, 0.002, 0.3} {
				d := (li*11 + int(sp*1000)) % 72
				r := rand.New(rand.NewPCG(uint64(li)+300, uint64(sp*1000)))
				ld := n + r.IntN(3)
				mat := values(r, d*ld+1, 1, sp)
				omega, yt := values(r, d, 1, sp/4), values(r, n, 2, sp)
				if d > 0 && sp > 0 {
					omega[r.IntN(d)] = 1e9 // |p| beyond the fast domain: the bail paths
				}
				b := r.Float64() * 7
				xp := toPanels(r, mat, d, n, ld)
				xp32 := make([]float32, len(xp))
				mat32 := make([]float64, d*n)
				for k := 0; k < d; k++ {
					for i := 0; i < n; i++ {
						j := (i/panelLen)*panelLen*d + k*panelLen + i%panelLen
						xp32[j] = float32(xp[j])
						mat32[k*n+i] = float64(xp32[j])
					}
				}
				check := func(layout string, m []float64, ld int, sweep func(proj []float64)) {
					t.Helper()
					proj := junk(r, n)
					sweep(proj)
					s, c := junk(r, n), junk(r, n)
					Sincos(s, c, proj)
					ws, wc := junk(r, n), junk(r, n)
					SincosDot(ws, wc, m, ld, omega)
					for i := 0; i < n; i++ {
						if !sameBits(s[i], ws[i]) || !sameBits(c[i], wc[i]) {
							t.Fatalf("%s n=%d d=%d special=%v: element %d: Sincos(projection %v) = %v, %v; SincosDot %v, %v", layout, n, d, sp, i, proj[i], s[i], c[i], ws[i], wc[i])
						}
					}
				}
				var acc [8]float64
				accX := make([][8]float64, d)
				check("columns", mat, ld, func(proj []float64) { FreqStepSums(proj, yt, mat, ld, omega, b, &acc, accX) })
				check("panels", mat, ld, func(proj []float64) { FreqStepSumsPanels(proj, yt, xp, omega, b, &acc, accX) })
				check("panels32", mat32, n, func(proj []float64) { FreqStepSumsPanels32(proj, yt, xp32, omega, b, &acc, accX) })
			}
		}
	})
}

// TestFreqStepProjectionShape: a projection output shorter than the
// elements panics, in every layout.
func TestFreqStepProjectionShape(t *testing.T) {
	var acc [8]float64
	accX := make([][8]float64, 3)
	for name, f := range map[string]func(){
		"FreqStepSums": func() {
			FreqStepSums(make([]float64, 64), make([]float64, 65), make([]float64, 3*65), 65, make([]float64, 3), 0, &acc, accX)
		},
		"FreqStepSumsPanels": func() {
			FreqStepSumsPanels(make([]float64, 64), make([]float64, 65), make([]float64, 64*6), make([]float64, 3), 0, &acc, accX)
		},
		"FreqStepSumsPanels32": func() {
			FreqStepSumsPanels32(make([]float64, 64), make([]float64, 65), make([]float32, 64*6), make([]float64, 3), 0, &acc, accX)
		},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), name+":") {
					t.Fatalf("%s: panic %v, want one naming it", name, r)
				}
			}()
			f()
		}()
	}
}

// TestSincosStatsIsSincosDotStats: on every path SincosStats gives the bits
// of Sincos followed by DotStats over the rows c and s with the vectors
// (cos b) and (sin b) — the settle of a GBRFF2 round without storing s and
// c — for lengths around the group and unroll sizes, unaligned slices,
// special values and projections outside the fast trig domain.
func TestSincosStatsIsSincosDotStats(t *testing.T) {
	lengths := []int{0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 63, 64, 65, 1000, 4099}
	forEachPath(t, func(t *testing.T) {
		for li, n := range lengths {
			for _, sp := range []float64{0, 0.02, 0.3} {
				r := rand.New(rand.NewPCG(uint64(li)+500, uint64(sp*1000)))
				p, yt := values(r, n, 4, sp), values(r, n, 2, sp)
				if n > 0 && sp > 0 {
					p[r.IntN(n)] = -3e15
				}
				b := r.Float64() * 7
				cb, sb := math.Cos(b), math.Sin(b)
				h, wh := junk(r, n), junk(r, n)
				s, c := junk(r, n), junk(r, n)
				var acc, wacc [8]float64
				SincosStats(h, yt, p, cb, sb, &acc)
				Sincos(s, c, p)
				DotStats(wh, yt, c, []float64{cb}, s, []float64{sb}, n, &wacc)
				got, want := flatten(h, acc[:]), flatten(wh, wacc[:])
				for i := range want {
					if !sameBits(got[i], want[i]) {
						t.Fatalf("n=%d special=%v: value %d is %v, Sincos + DotStats %v", n, sp, i, got[i], want[i])
					}
				}
			}
		}
	})
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "SincosStats") {
			t.Fatalf("short projections: panic %v, want one naming SincosStats", r)
		}
	}()
	var acc [8]float64
	SincosStats(make([]float64, 9), make([]float64, 9), make([]float64, 8), 1, 0, &acc)
}
