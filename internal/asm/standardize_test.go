package asm

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// stdInput returns x, mean and scale of length n: values of every kind
// (randomInput's mix), a fraction special of them from specials (±0, NaN,
// ±Inf, subnormals, huge and tiny values), scales mostly positive and of
// any size.
func stdInput(r *rand.Rand, n int, special float64) (x, mean, scale []float64) {
	x, mean = randomInput(r, n, special), randomInput(r, n, special)
	scale = randomInput(r, n, special)
	for i := range scale {
		if r.Float64() < 0.5 {
			scale[i] = math.Abs(scale[i])
		}
		if r.Float64() < 0.3 {
			scale[i] = 0.5 + r.Float64()*4 // a typical standard deviation
		}
	}
	return x, mean, scale
}

// checkStandardize runs Standardize on sub-slices at offset off (unaligned
// for odd off) and compares every bit with the twin, the +0 of each NaN x
// and the guards around z; in place (z = x) too.
func checkStandardize(t *testing.T, x, mean, scale []float64, off int) {
	t.Helper()
	n := len(x)
	buf := func(v []float64) []float64 {
		b := make([]float64, off+n+3)
		for i := range b {
			b[i] = guard
		}
		copy(b[off:], v)
		return b[off : off+n : off+n]
	}
	xs, ms, ss := buf(x), buf(mean), buf(scale)
	zb := make([]float64, off+n+3)
	for i := range zb {
		zb[i] = guard
	}
	z := zb[off : off+n]
	want := make([]float64, n)
	standardizeRef(want, x, mean, scale)
	Standardize(z, xs, ms, ss)
	for i := range zb {
		if (i < off || i >= off+n) && zb[i] != guard {
			t.Fatalf("len %d, offset %d: wrote z's neighbour %d", n, off, i)
		}
	}
	for i := range want {
		if math.Float64bits(z[i]) != math.Float64bits(want[i]) {
			t.Fatalf("len %d, offset %d: z[%d] = (%v − %v)/%v = %v (%#x), twin %v (%#x)", n, off, i, x[i], mean[i], scale[i], z[i], math.Float64bits(z[i]), want[i], math.Float64bits(want[i]))
		}
		if x[i] != x[i] && math.Float64bits(z[i]) != 0 {
			t.Fatalf("len %d: x[%d] is NaN but z = %v, not +0", n, i, z[i])
		}
		if x[i] == x[i] && mean[i] == mean[i] && scale[i] == scale[i] {
			if g := (x[i] - mean[i]) / scale[i]; !sameBits(g, want[i]) {
				t.Fatalf("twin %v, Go expression %v", want[i], g)
			}
		}
	}
	// In place: z is x.
	Standardize(xs, xs, ms, ss)
	for i := range want {
		if math.Float64bits(xs[i]) != math.Float64bits(want[i]) {
			t.Fatalf("len %d, offset %d, in place: z[%d] = %v, twin %v", n, off, i, xs[i], want[i])
		}
	}
}

func TestStandardizePaths(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 29))
		for n := 0; n <= 70; n++ {
			for off := 0; off < 3; off++ {
				for _, special := range []float64{0, 0.1, 0.5} {
					x, m, s := stdInput(r, n, special)
					checkStandardize(t, x, m, s, off)
				}
			}
		}
		// Every special in every lane position, against every special.
		for _, n := range []int{1, 3, 7, 8, 9, 17, 20} {
			for _, a := range specials {
				for _, b := range specials {
					x, m, s := make([]float64, n), make([]float64, n), make([]float64, n)
					for i := range x {
						x[i], m[i], s[i] = a, b, 1.5
						switch i % 3 {
						case 1:
							x[i], m[i], s[i] = 2.5, a, b
						case 2:
							x[i], m[i], s[i] = a, 0.25, b
						}
					}
					checkStandardize(t, x, m, s, n%2)
				}
			}
		}
	})
}

// TestStandardizeSignedZeroAndNaN pins the cases the twin must get right:
// a NaN x is +0 whatever mean and scale are; x = mean is +0 (and −0 − +0
// is −0); NaN mean or scale with a number x is NaN.
func TestStandardizeSignedZeroAndNaN(t *testing.T) {
	negZero, nan, inf := math.Copysign(0, -1), math.NaN(), math.Inf(1)
	cases := []struct{ x, m, s, want float64 }{
		{nan, 1, 2, 0}, {nan, nan, nan, 0}, {nan, inf, 0, 0}, {-nan, 1, negZero, 0},
		{3, 3, 2, 0}, {3, 3, -2, negZero}, {negZero, 0, 1, negZero}, {0, negZero, 1, 0},
		{1, 0, 0, inf}, {-1, 0, 0, -inf}, {0, 0, 0, nan}, {1, nan, 1, nan}, {1, 0, nan, nan},
		{inf, inf, 1, nan}, {inf, 0, inf, nan}, {math.MaxFloat64, -math.MaxFloat64, 1, inf},
		{5e-324, 0, 2, 0}, {3 * 5e-324, 0, 2, 2 * 5e-324}, {1e-300, 0, 1e300, 0},
	}
	forEachPath(t, func(t *testing.T) {
		for _, c := range cases {
			for _, n := range []int{1, 4, 8, 13} { // the case in every kind of lane
				x, m, s, z := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
				for i := range x {
					x[i], m[i], s[i] = c.x, c.m, c.s
				}
				Standardize(z, x, m, s)
				for i, v := range z {
					if !sameBits(v, c.want) {
						t.Fatalf("n %d: (%v − %v)/%v = %v at %d, want %v", n, c.x, c.m, c.s, v, i, c.want)
					}
				}
			}
		}
	})
}

// TestStandardizeExact checks the accuracy contract against math/big: for
// finite x, mean and nonzero finite scale, z = round(round(x − mean)/scale).
// x − mean is exact in 2200 bits and rounds once in Float64 (subnormals
// and overflow included); the quotient in 300 bits cannot sit within
// 2⁻²⁰⁰ of a midpoint of float64, so its Float64 is correctly rounded.
func TestStandardizeExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	const n = 997
	x, m, s := make([]float64, n), make([]float64, n), make([]float64, n)
	fill := func() {
		for i := range x {
			for {
				x[i], m[i], s[i] = randomInput(r, 1, 0.2)[0], randomInput(r, 1, 0.2)[0], randomInput(r, 1, 0.2)[0]
				if !math.IsInf(x[i], 0) && !math.IsNaN(x[i]) && !math.IsInf(m[i], 0) && !math.IsNaN(m[i]) && !math.IsInf(s[i], 0) && !math.IsNaN(s[i]) && s[i] != 0 {
					break
				}
			}
			if i%4 == 1 { // close values: cancellation in x − mean
				m[i] = x[i] * (1 + (r.Float64()-0.5)*1e-12)
			}
		}
	}
	forEachPath(t, func(t *testing.T) {
		z := make([]float64, n)
		for range 8 {
			fill()
			Standardize(z, x, m, s)
			checked := 0
			for i := range z {
				d := new(big.Float).SetPrec(2200).Sub(big.NewFloat(x[i]), big.NewFloat(m[i]))
				d64, _ := d.Float64()
				if d.Sign() == 0 {
					d64 = 0 // x − x is +0
				}
				if math.IsInf(d64, 0) {
					if !sameBits(z[i], d64/s[i]) {
						t.Fatalf("(%v − %v)/%v = %v, want %v", x[i], m[i], s[i], z[i], d64/s[i])
					}
					continue
				}
				q := new(big.Float).SetPrec(300).Quo(big.NewFloat(d64), big.NewFloat(s[i]))
				want, _ := q.Float64()
				if q.Sign() == 0 {
					want = math.Copysign(0, d64) * math.Copysign(1, s[i])
				}
				if math.Float64bits(z[i]) != math.Float64bits(want) {
					t.Fatalf("(%v − %v)/%v = %v (%#x), correctly rounded %v (%#x)", x[i], m[i], s[i], z[i], math.Float64bits(z[i]), want, math.Float64bits(want))
				}
				checked++
			}
			if checked < n/2 {
				t.Fatalf("only %d of %d samples checked", checked, n)
			}
		}
	})
}

// FuzzStandardize feeds arbitrary bit patterns as (x, mean, scale) triples
// to every path and compares every bit with the twin, also in place.
func FuzzStandardize(f *testing.F) {
	seed := make([]byte, 0, 24*len(specials))
	for i, v := range specials {
		for _, u := range []float64{v, specials[(i+7)%len(specials)], specials[(i+13)%len(specials)]} {
			seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(u))
		}
	}
	f.Add(seed)
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		n := len(data) / 24
		x, m, s := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[24*i:]))
			m[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[24*i+8:]))
			s[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[24*i+16:]))
		}
		want, z := make([]float64, n), make([]float64, n)
		standardizeRef(want, x, m, s)
		for _, p := range Paths() {
			restore, err := SetPath(p)
			if err != nil {
				t.Fatal(err)
			}
			Standardize(z, x, m, s)
			in := append([]float64(nil), x...)
			Standardize(in, in, m, s)
			restore()
			for i := range want {
				if math.Float64bits(z[i]) != math.Float64bits(want[i]) || math.Float64bits(in[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%s: (%v − %v)/%v = %v (in place %v), twin %v", p, x[i], m[i], s[i], z[i], in[i], want[i])
				}
			}
		}
	})
}

func TestStandardizePanics(t *testing.T) {
	for name, f := range map[string]func(){
		"z":     func() { Standardize(make([]float64, 2), make([]float64, 3), make([]float64, 3), make([]float64, 3)) },
		"mean":  func() { Standardize(make([]float64, 3), make([]float64, 3), make([]float64, 4), make([]float64, 3)) },
		"scale": func() { Standardize(make([]float64, 3), make([]float64, 3), make([]float64, 3), nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: a wrong length did not panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkStandardize times one row of d inputs (a Predict's
// standardisation) per path, in cache.
func BenchmarkStandardize(b *testing.B) {
	for _, d := range []int{8, 20, 100} {
		r := rand.New(rand.NewPCG(3, 4))
		x, m, s, z := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
		for i := range x {
			x[i], m[i], s[i] = r.NormFloat64(), r.NormFloat64(), 0.5+r.Float64()
		}
		for _, p := range Paths() {
			b.Run(fmt.Sprintf("d=%d/path=%s", d, p), func(b *testing.B) {
				defer mustPath(b, p)()
				for b.Loop() {
					Standardize(z, x, m, s)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d), "ns/elem")
			})
		}
	}
}
