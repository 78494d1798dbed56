package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestColumns32MatchWidened: FreqStepSums32 and SincosDot32 give, on every
// path, the bits of FreqStepSums and SincosDot (generic path) over the
// float32 values widened to float64: lengths around the group and piece
// sizes, several d (the heap-widened piece above 32), a row stride beyond
// n with junk between the rows, a matrix that starts on an odd 4-byte
// word, and special values (NaN, ±Inf, float32 subnormals, values at the
// float32 limits, whose projections fail the sincos domain check).
func TestColumns32MatchWidened(t *testing.T) {
	lengths := []int{0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200, 1000, 4099}
	specials32 := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e-45, -3e-42, 1.1754942e-38, math.MaxFloat32, -math.MaxFloat32, 0, float32(math.Copysign(0, -1))}
	if !Columns32() {
		t.Logf("path %v widens on the Go side (no float32 column bodies)", path)
	}
	forEachPath(t, func(t *testing.T) {
		for li, n := range lengths {
			for _, sp := range []float64{0, 0.002, 0.3} {
				d := (li*7 + int(sp*1000)) % 41
				r := rand.New(rand.NewPCG(uint64(li)+200, uint64(sp*1000)))
				ld := n + r.IntN(5)
				off := r.IntN(2) // an odd word: not 8-byte aligned
				buf := make([]float32, off+d*ld)
				for i := range buf {
					buf[i] = float32(r.NormFloat64() * 3e38) // junk: would show in any sum
				}
				xt := buf[off:]
				mat := make([]float64, d*n)
				for k := 0; k < d; k++ {
					for i := 0; i < n; i++ {
						v := float32(r.NormFloat64())
						if r.Float64() < sp {
							v = specials32[r.IntN(len(specials32))]
						}
						xt[k*ld+i] = v
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
				FreqStepSums32(proj, yt, xt, ld, omega, b, &acc, accX)
				SincosDot32(s, c, xt, ld, omega)
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
						t.Fatalf("n=%d d=%d ld=%d special=%v off=%d: value %d is %v, widened %v", n, d, ld, sp, off, i, got[i], want[i])
					}
				}
			}
		}
	})
}

// TestColumns32Shape: a float32 matrix too short for its rows, or a row
// stride below n, panics with the function's name.
func TestColumns32Shape(t *testing.T) {
	for _, f := range []func(){
		func() {
			var acc [8]float64
			FreqStepSums32(make([]float64, 65), make([]float64, 65), make([]float32, 2*65+64), 65, make([]float64, 3), 0, &acc, make([][8]float64, 3))
		},
		func() {
			SincosDot32(make([]float64, 65), make([]float64, 65), make([]float32, 3*65), 64, make([]float64, 3))
		},
	} {
		panicsNaming(t, "32", f)
	}
}

// BenchmarkColumns32: SincosDot and FreqStepSums over a column-major matrix
// of float64 against float32 (SincosDot32, FreqStepSums32), d = 20, one
// call per chunk of 4096 elements as exploss sweeps it, in cache (n = 4096)
// and out of it (n = 10⁵: 16 MB of float64, 8 of float32).
func BenchmarkColumns32(b *testing.B) {
	const d = 20
	for _, n := range []int{4096, 100000} {
		r := rand.New(rand.NewPCG(3, 4))
		mat := values(r, d*n, 1, 0)
		mat32 := make([]float32, len(mat))
		for i, v := range mat {
			mat32[i] = float32(v)
		}
		omega, yt := values(r, d, 1, 0), values(r, n, 2, 0)
		for i := range omega {
			omega[i] *= 0.3
		}
		s, c, proj := make([]float64, n), make([]float64, n), make([]float64, n)
		var acc [8]float64
		accX := make([][8]float64, d)
		for _, kind := range []string{"sincos", "freqstep"} {
			for _, elem := range []string{"float64", "float32"} {
				b.Run(fmt.Sprintf("n=%d/kernel=%s/x=%s", n, kind, elem), func(b *testing.B) {
					for b.Loop() {
						for lo := 0; lo < n; lo += 4096 {
							hi := min(lo+4096, n)
							switch {
							case kind == "sincos" && elem == "float64":
								SincosDot(s[lo:hi], c[lo:hi], mat[lo:], n, omega)
							case kind == "sincos":
								SincosDot32(s[lo:hi], c[lo:hi], mat32[lo:], n, omega)
							case elem == "float64":
								FreqStepSums(proj[lo:hi], yt[lo:hi], mat[lo:], n, omega, 0.7, &acc, accX)
							default:
								FreqStepSums32(proj[lo:hi], yt[lo:hi], mat32[lo:], n, omega, 0.7, &acc, accX)
							}
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
				})
			}
		}
	}
}
