package exactsum

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exact is the sum of xs in math/big, rounded to float64 (to nearest, ties
// to even): the reference.
func exact(xs []float64) float64 {
	var want big.Float
	want.SetPrec(4000)
	for _, x := range xs {
		var b big.Float
		b.SetPrec(4000).SetFloat64(x)
		want.Add(&want, &b)
	}
	w, _ := want.Float64()
	return w
}

// TestSum: the sums equal math/big's exact sum correctly rounded,
// whatever the order and grouping of the terms, across the whole float64
// range (subnormals, huge values, cancellation, ties).
func TestSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		n := 1 + r.IntN(300)
		xs := make([]float64, n)
		for i := range xs {
			switch r.IntN(6) {
			case 0:
				xs[i] = math.Ldexp(r.NormFloat64(), r.IntN(2000)-1000)
			case 1:
				xs[i] = math.SmallestNonzeroFloat64 * float64(r.IntN(1000)-500)
			case 2:
				xs[i] = math.MaxFloat64 / float64(2+r.IntN(n)) * float64(1-2*r.IntN(2))
			case 3:
				xs[i] = float64(r.IntN(5)-2) * math.Ldexp(1, r.IntN(120)-60) // ties
			default:
				xs[i] = r.NormFloat64()
			}
		}
		if trial%3 == 0 { // exact cancellation down to a tiny remainder
			xs = append(xs, 0)
			copy(xs[n/2+1:], xs[:n/2])
			for i := n/2 + 1; i < len(xs)-1; i++ {
				xs[i] = -xs[i]
			}
			xs[len(xs)-1] = 5e-324
		}
		w := exact(xs)

		one := New(1)
		for _, x := range xs {
			one.AddSlice(0, []float64{x})
		}
		// the same terms shuffled into three shards, merged in another order
		perm := r.Perm(len(xs))
		shards := []*Vec{New(1), New(1), New(1)}
		for k, i := range perm {
			shards[k%3].Add(0, xs[i])
			shards[k%3].Step()
		}
		enc, _ := shards[1].MarshalBinary()
		dec, rest, err := Unmarshal(enc)
		if err != nil || len(rest) != 0 {
			t.Fatal(err, len(rest))
		}
		if err := shards[2].Merge(shards[0]); err != nil {
			t.Fatal(err)
		}
		if err := shards[2].Merge(dec); err != nil {
			t.Fatal(err)
		}
		for _, got := range []float64{one.Float(0), shards[2].Float(0)} {
			if math.Float64bits(got) != math.Float64bits(w) {
				t.Fatalf("trial %d: sum %v, exact %v", trial, got, w)
			}
		}
	}
}

// TestRounding: sums that need rounding to nearest, ties to even, and the
// overflow to ±Inf.
func TestRounding(t *testing.T) {
	p := math.Ldexp
	for _, xs := range [][]float64{
		{p(1, 53), 1},                 // a tie: stays even (2^53)
		{p(1, 53), 3},                 // a tie: up to even (2^53 + 4)
		{p(1, 53), 1, p(1, -1074)},    // above the tie
		{-p(1, 53), -1, -p(1, -1074)}, // the same, negative
		{1, p(1, -53)},                // a tie below 1 ulp of 1
		{1, p(1, -53), p(1, -1074)},   // just above it
		{p(1, 1023), p(1, 1023)},      // overflows
		{-math.MaxFloat64, -math.MaxFloat64},
		{math.MaxFloat64, p(1, 970)},             // half an ulp, odd mantissa: up to 2^1024, overflows
		{math.MaxFloat64, p(1, 969)},             // a quarter ulp: stays MaxFloat64
		{p(1, -1074), p(1, -1074), -p(1, -1073)}, // exactly 0
		{p(3, -1074), p(1, -1022)},               // subnormal plus normal
		{0, math.Copysign(0, -1)},
	} {
		got := New(1)
		for _, x := range xs {
			got.AddSlice(0, []float64{x})
		}
		want := exact(xs)
		if math.Float64bits(got.Float(0)) != math.Float64bits(want) {
			t.Errorf("%v: sum %v, want %v", xs, got.Float(0), want)
		}
	}
}

func TestCorrupt(t *testing.T) {
	for _, data := range [][]byte{nil, {5}, {byte(bins), 1}, {byte(bins), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 1}} {
		if _, _, err := Unmarshal(data); err == nil {
			t.Errorf("%v: no error", data)
		}
	}
	if err := New(1).Merge(New(2)); err == nil {
		t.Error("merge of different lengths: no error")
	}
}

func BenchmarkAdd(b *testing.B) {
	v := New(1024)
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = math.Sin(float64(i))
	}
	for b.Loop() {
		v.AddSlice(0, xs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/add")
}

func BenchmarkFloat(b *testing.B) {
	v := New(1)
	v.AddSlice(0, []float64{math.Pi})
	v.AddSlice(0, []float64{1e-300})
	for b.Loop() {
		_ = v.Float(0)
	}
}

// TestBlocked: blocked sums equal a Vec of the block sums, for one block
// (no exact sum taken) and several, with a −0 block sum made 0.
func TestBlocked(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, blocks := range []int{0, 1, 2, 5} {
		b := NewBlocked(3)
		v := New(3)
		for range blocks {
			for i := range b.Part {
				b.Part[i] = math.Ldexp(r.NormFloat64(), r.IntN(100)-50)
			}
			b.Part[2] = math.Copysign(0, -1)
			v.AddSlice(0, b.Part)
			b.EndBlock()
		}
		got, want := make([]float64, 3), make([]float64, 3)
		b.Sums(got)
		v.Floats(want)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("%d blocks, sum %d: %v, want %v", blocks, i, got[i], want[i])
			}
		}
	}
}

// TestCompact: Compact sums equal Vec sums, for terms near each other and
// for terms across the whole range (which leave the window).
func TestCompact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n := 1 + r.IntN(50)
		c, v := NewCompact(4), New(4)
		for range n {
			for i := range 4 {
				var x float64
				switch {
				case i == 3 && trial%2 == 0: // far apart
					x = math.Ldexp(r.NormFloat64(), r.IntN(2000)-1000)
				case i == 2:
					x = math.Ldexp(r.NormFloat64(), r.IntN(200)-100)
				default:
					x = r.NormFloat64() * float64(1+i)
				}
				c.Add(i, x)
				v.Add(i, x)
			}
			c.Step()
			v.Step()
		}
		for i := range 4 {
			if g, w := c.Float(i), v.Float(i); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("trial %d sum %d: compact %v, vec %v", trial, i, g, w)
			}
		}
	}
}

// TestCarries: propagating the carries after every few additions (as
// happens after 2^30 of them) leaves every sum as it was.
func TestCarries(t *testing.T) {
	defer func(l int) { limit = l }(limit)
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]float64, 500)
	for i := range xs {
		xs[i] = math.Ldexp(r.NormFloat64(), r.IntN(300)-150)
	}
	sum := func() (float64, float64) {
		c, v := NewCompact(1), New(1)
		for _, x := range xs {
			c.AddSlice(0, []float64{x})
			v.AddSlice(0, []float64{x})
		}
		return c.Float(0), v.Float(0)
	}
	want := exact(xs)
	for _, l := range []int{1 << 30, 3, 1} {
		limit = l
		c, v := sum()
		if math.Float64bits(c) != math.Float64bits(want) || math.Float64bits(v) != math.Float64bits(want) {
			t.Errorf("carries every %d additions: compact %v, vec %v, exact %v", l, c, v, want)
		}
	}
}

// TestBlockedSpecial: a NaN or ±Inf block sum makes its total NaN or ±Inf
// (an exact sum cannot hold it), and leaves the other totals alone.
func TestBlockedSpecial(t *testing.T) {
	for _, blocks := range []int{1, 3} {
		b := NewBlocked(4)
		for k := range blocks {
			b.Part[0], b.Part[1], b.Part[2], b.Part[3] = 1, math.NaN(), math.Inf(1), 2
			if k == 2 {
				b.Part[3] = math.Inf(-1)
			}
			b.EndBlock()
		}
		got := make([]float64, 4)
		b.Sums(got)
		if got[0] != float64(blocks) || !math.IsNaN(got[1]) || !math.IsInf(got[2], 1) {
			t.Errorf("%d blocks: %v", blocks, got)
		}
		if want := 2.0; blocks == 3 && !math.IsInf(got[3], -1) || blocks == 1 && got[3] != want {
			t.Errorf("%d blocks: sum 3 is %v", blocks, got[3])
		}
	}
}
