package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestSumsFrameLayout pins sumsArgs to the Frame* offsets the generators use
// (internal/gen/kernels/reduce.go).
func TestSumsFrameLayout(t *testing.T) {
	var a sumsArgs
	got := []uintptr{unsafe.Offsetof(a.in), unsafe.Offsetof(a.out), unsafe.Offsetof(a.mat), unsafe.Offsetof(a.vec),
		unsafe.Offsetof(a.acc), unsafe.Offsetof(a.accm), unsafe.Offsetof(a.d), unsafe.Offsetof(a.ld),
		unsafe.Offsetof(a.i), unsafe.Offsetof(a.n), unsafe.Offsetof(a.par), unsafe.Sizeof(a)}
	want := []uintptr{0, 32, 48, 64, 80, 88, 104, 112, 120, 128, 136, 168}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sumsArgs layout %v, generators expect %v", got, want)
	}
}

// sumsCase runs one reduction on generated data and returns every output and
// accumulator lane, flattened, for bit comparison between paths.
type sumsCase struct {
	name string
	run  func(r *rand.Rand, n, d int, special float64) []float64
}

// values draws n inputs at an unaligned offset inside a larger buffer.
func values(r *rand.Rand, n int, scale, special float64) []float64 {
	off := r.IntN(3)
	buf := make([]float64, n+off)
	for i := off; i < len(buf); i++ {
		if r.Float64() < special {
			buf[i] = specials[r.IntN(len(specials))]
			continue
		}
		buf[i] = r.NormFloat64() * scale
	}
	return buf[off:]
}

// junk returns an output buffer of n elements at an unaligned offset,
// filled with values (NaNs of random payloads, huge numbers) that show
// wherever a kernel fails to write.
func junk(r *rand.Rand, n int) []float64 {
	off := r.IntN(3)
	buf := make([]float64, n+off)
	for i := range buf {
		buf[i] = math.Float64frombits(0x7ff8_0000_0000_0000 | r.Uint64()>>13)
		if r.IntN(2) == 0 {
			buf[i] = r.NormFloat64() * 1e300
		}
	}
	return buf[off:]
}

func flatten(parts ...[]float64) []float64 {
	var out []float64
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func lanes(a [][8]float64) []float64 {
	var out []float64
	for i := range a {
		out = append(out, a[i][:]...)
	}
	return out
}

var sumsCases = []sumsCase{
	{"Weights", func(r *rand.Rand, n, _ int, sp float64) []float64 {
		y, H, h := values(r, n, 1, sp), values(r, n, 30, sp), values(r, n, 1, sp)
		yt := make([]float64, n)
		var acc [8]float64
		Weights(yt, H, y, h, r.NormFloat64(), &acc)
		return flatten(yt, H, acc[:])
	}},
	{"PhaseSums", func(r *rand.Rand, n, _ int, sp float64) []float64 {
		c, s, yt := values(r, n, 1, sp), values(r, n, 1, sp), values(r, n, 5, sp)
		var acc [2][8]float64
		b := r.Float64() * 7
		PhaseSums(c, s, yt, math.Cos(b), math.Sin(b), &acc)
		return flatten(acc[0][:], acc[1][:])
	}},
	{"SincosDot", func(r *rand.Rand, n, d int, sp float64) []float64 {
		ld := n + r.IntN(3)
		mat, vec := values(r, d*ld, 1, sp), values(r, d, 1, sp/4)
		s, c := make([]float64, n), make([]float64, n)
		SincosDot(s, c, mat, ld, vec)
		return flatten(s, c)
	}},
	{"DotStats", func(r *rand.Rand, n, d int, sp float64) []float64 {
		ld := n + r.IntN(3)
		m0, m1 := values(r, d*ld, 1, sp), values(r, d*ld, 1, sp)
		v0, v1, yt := values(r, d, 1, sp), values(r, d, 1, sp), values(r, n, 1, sp)
		h := make([]float64, n)
		var acc [8]float64
		DotStats(h, yt, m0, v0, m1, v1, ld, &acc)
		return flatten(h, acc[:])
	}},
	{"FreqStepSums", func(r *rand.Rand, n, d int, sp float64) []float64 {
		ld := n + r.IntN(3)
		xt, omega, yt := values(r, d*ld, 1, sp), values(r, d, 1, sp/4), values(r, n, 2, sp)
		var acc [8]float64
		accX := make([][8]float64, d)
		proj := junk(r, n)
		FreqStepSums(proj, yt, xt, ld, omega, r.Float64()*7, &acc, accX)
		return flatten(proj, acc[:], lanes(accX))
	}},
	{"SincosStats", func(r *rand.Rand, n, _ int, sp float64) []float64 {
		p, yt := values(r, n, 5, sp), values(r, n, 2, sp)
		if n > 0 && sp > 0 {
			p[r.IntN(n)] = 1e12 // outside the fast trig domain: a bail
		}
		h := junk(r, n)
		b := r.Float64() * 7
		var acc [8]float64
		SincosStats(h, yt, p, math.Cos(b), math.Sin(b), &acc)
		return flatten(h, acc[:])
	}},
	{"LandmarkSums", func(r *rand.Rand, n, d int, sp float64) []float64 {
		ld := n + r.IntN(3)
		C, S := values(r, d*ld, 1, sp), values(r, d*ld, 1, sp)
		ca, sa, yt := values(r, d, 1, sp), values(r, d, 1, sp), values(r, n, 2, sp)
		var acc [8]float64
		accC, accS := make([][8]float64, d), make([][8]float64, d)
		LandmarkSums(yt, C, S, ld, ca, sa, &acc, accC, accS)
		return flatten(acc[:], lanes(accC), lanes(accS))
	}},
	{"CosSum", func(r *rand.Rand, n, d int, sp float64) []float64 {
		ldw := n + r.IntN(3)
		x, w := values(r, d, 1, sp/4), values(r, d*ldw, 1, sp)
		b, a := values(r, n, 3, sp), values(r, n, 1, sp)
		return []float64{CosSum(x, w, ldw, b, a)}
	}},
}

// TestSumsMatchTwin: every path gives the twin's bits, for every length
// 0…70 and some long ones (tails, unrolled and one-group loops, bails),
// row counts 0…25, unaligned slices, with and without special values.
func TestSumsMatchTwin(t *testing.T) {
	lengths := []int{}
	for n := 0; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	// 103…112 and 207…209: around one and two blocks of CosSum's 13 groups.
	lengths = append(lengths, 103, 104, 105, 111, 112, 127, 128, 129, 207, 208, 209, 1000, 4099)
	for _, sc := range sumsCases {
		forEachPath(t, func(t *testing.T) {
			for li, n := range lengths {
				for _, sp := range []float64{0, 0.02, 0.3} {
					d := (li*7 + int(sp*100)) % 26
					seed := uint64(li)*1000 + uint64(sp*100)
					got := sc.run(rand.New(rand.NewPCG(seed, 7)), n, d, sp)
					restore, err := SetPath("generic")
					if err != nil {
						t.Fatal(err)
					}
					want := sc.run(rand.New(rand.NewPCG(seed, 7)), n, d, sp)
					restore()
					for i := range want {
						if !sameBits(got[i], want[i]) {
							t.Fatalf("%s n=%d d=%d special=%v: value %d is %v, twin %v", sc.name, n, d, sp, i, got[i], want[i])
						}
					}
				}
			}
		})
	}
}

// TestSumsFormulas checks each reduction against the formula written with
// Go's math package. Tolerance: every term is within a few ULP of the exact
// one (Exp, Cos ≤ 1 ULP; a handful of roundings), so a sum of positive terms
// is within ~n·ε relative; sums with cancellation are compared with an
// absolute tolerance scaled by Σ|term|.
func TestSumsFormulas(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n, d = 1001, 13
	near := func(what string, got, want, scale float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12*scale {
			t.Errorf("%s: got %v want %v (scale %v)", what, got, want, scale)
		}
	}
	forEachPath(t, func(t *testing.T) {
		y, H, h := values(r, n, 1, 0), values(r, n, 3, 0), values(r, n, 1, 0)
		H0 := append([]float64(nil), H...)
		yt := make([]float64, n)
		var acc [8]float64
		const alpha = 0.3
		Weights(yt, H, y, h, alpha, &acc)
		var sw, sabs float64
		for i := range y {
			Hi := H0[i] + alpha*h[i]
			w := math.Exp(-y[i] * Hi)
			sw += w
			sabs += w
			near("Weights H", H[i], Hi, math.Abs(Hi)+1)
			near("Weights yt", yt[i], y[i]*w, math.Abs(y[i]*w)*1e3)
		}
		near("Weights Σw", SumLanes(&acc), sw, sabs*10)

		c, s := make([]float64, n), make([]float64, n)
		xt, omega := values(r, d*n, 1, 0), values(r, d, 0.5, 0)
		SincosDot(s, c, xt, n, omega)
		p := make([]float64, n)
		for i := range p {
			for k := range omega {
				p[i] += omega[k] * xt[k*n+i]
			}
			near("SincosDot sin", s[i], math.Sin(p[i]), 1e3)
			near("SincosDot cos", c[i], math.Cos(p[i]), 1e3)
		}

		const b = 1.1
		var pacc [2][8]float64
		PhaseSums(c, s, yt, math.Cos(b), math.Sin(b), &pacc)
		var f, df, fabs float64
		for i := range p {
			e := math.Exp(-yt[i] * math.Cos(p[i]-b))
			f += e
			df += e * -yt[i] * math.Sin(p[i]-b)
			fabs += e * math.Abs(yt[i])
		}
		near("PhaseSums f", SumLanes(&pacc[0]), f, f*10)
		near("PhaseSums f'", -SumLanes(&pacc[1]), df, fabs*10)

		var facc [8]float64
		accX := make([][8]float64, d)
		proj := make([]float64, n)
		FreqStepSums(proj, yt, xt, n, omega, b, &facc, accX)
		for i := range p {
			near("FreqStepSums projection", proj[i], p[i], 1e3)
		}
		g := make([]float64, d)
		var loss float64
		gabs := make([]float64, d)
		for i := range p {
			e := math.Exp(-yt[i] * math.Cos(p[i]-b))
			loss += e
			rr := yt[i] * math.Sin(p[i]-b) * e
			for k := range g {
				g[k] += rr * xt[k*n+i]
				gabs[k] += math.Abs(rr * xt[k*n+i])
			}
		}
		near("FreqStepSums loss", SumLanes(&facc), loss, loss*10)
		for k := range g {
			near(fmt.Sprintf("FreqStepSums grad[%d]", k), SumLanes(&accX[k]), g[k], gabs[k]*10)
		}

		w, x := values(r, d*n, 1, 0), values(r, d, 0.5, 0)
		bb, a := values(r, n, 3, 0), values(r, n, 1, 0)
		var cs, csabs float64
		for j := 0; j < n; j++ {
			v := bb[j]
			for k := range x {
				v += x[k] * w[k*n+j]
			}
			cs += a[j] * math.Cos(v)
			csabs += math.Abs(a[j])
		}
		near("CosSum", CosSum(x, w, n, bb, a), cs, csabs*10)
	})
}

// TestLandmarkFormula checks LandmarkSums and DotStats against the GBRFF1
// objective written directly: cos(a_k − P_ik) per term.
func TestLandmarkFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, K = 517, 7
	P := values(r, K*n, 2, 0) // Pᵀ, row k = frequency k
	a := values(r, K, 1, 0)
	yt := values(r, n, 1, 0)
	C, S := make([]float64, K*n), make([]float64, K*n)
	Sincos(S, C, P)
	ca, sa := make([]float64, K), make([]float64, K)
	for k := range a {
		ca[k], sa[k] = math.Cos(a[k])/K, math.Sin(a[k])/K
	}
	forEachPath(t, func(t *testing.T) {
		var acc [8]float64
		accC, accS := make([][8]float64, K), make([][8]float64, K)
		LandmarkSums(yt, C, S, n, ca, sa, &acc, accC, accS)
		var loss float64
		grad := make([]float64, K) // ∂(Σ_i e_i)/∂a_k
		for i := 0; i < n; i++ {
			var m float64
			for k := range a {
				m += math.Cos(a[k]-P[k*n+i]) / K
			}
			e := math.Exp(-yt[i] * m)
			loss += e
			for k := range a {
				grad[k] += e * yt[i] * math.Sin(a[k]-P[k*n+i]) / K
			}
		}
		if got := SumLanes(&acc); math.Abs(got-loss) > 1e-11*loss {
			t.Errorf("loss %v want %v", got, loss)
		}
		for k := range a {
			// sin(a−P) = sin a·cos P − cos a·sin P
			got := (sa[k]*SumLanes(&accC[k]) - ca[k]*SumLanes(&accS[k]))
			if math.Abs(got-grad[k]) > 1e-11*loss {
				t.Errorf("grad[%d] %v want %v", k, got, grad[k])
			}
		}
		h := make([]float64, n)
		var hacc [8]float64
		DotStats(h, yt, C, ca, S, sa, n, &hacc)
		var sh float64
		for i := range h {
			var m float64
			for k := range a {
				m += math.Cos(a[k]-P[k*n+i]) / K
			}
			if math.Abs(h[i]-m) > 1e-14 {
				t.Fatalf("DotStats h[%d] %v want %v", i, h[i], m)
			}
			sh += yt[i] * m
		}
		if got := SumLanes(&hacc); math.Abs(got-sh) > 1e-12*float64(n) {
			t.Errorf("DotStats Σ %v want %v", got, sh)
		}
	})
}
