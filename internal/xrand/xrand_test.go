package xrand

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func newSrc(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 11)) }

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestNormalsMoments checks the Box–Muller stream against N(0, 1).
func TestNormalsMoments(t *testing.T) {
	const n = 400000
	g := NewNormals(newSrc(3))
	var m1, m2, m3, m4 float64
	tail := 0
	for range n {
		z := g.Next()
		m1 += z
		m2 += z * z
		m3 += z * z * z
		m4 += z * z * z * z
		if math.Abs(z) > 1.959963984540054 {
			tail++
		}
	}
	m1, m2, m3, m4 = m1/n, m2/n, m3/n, m4/n
	if math.Abs(m1) > 0.01 || math.Abs(m2-1) > 0.01 || math.Abs(m3) > 0.03 || math.Abs(m4-3) > 0.06 {
		t.Errorf("moments %.4f %.4f %.4f %.4f, want 0 1 0 3", m1, m2, m3, m4)
	}
	if p := float64(tail) / n; math.Abs(p-0.05) > 0.002 {
		t.Errorf("P(|z| > 1.96) = %.4f, want 0.05", p)
	}
}

// TestNormalsConsumption checks that the stream does not depend on how it
// is read (one at a time or in slices crossing block boundaries), and that
// it is the FillNormal sequence of its source.
func TestNormalsConsumption(t *testing.T) {
	a, b := NewNormals(newSrc(9)), NewNormals(newSrc(9))
	want := make([]float64, 3*normalBlock+7)
	a.Fill(want)
	got := make([]float64, 0, len(want))
	for len(got) < len(want) {
		k := min(1+len(got)%331, len(want)-len(got))
		chunk := make([]float64, k)
		b.Fill(chunk)
		got = append(got, chunk...)
	}
	if !sameBits(got, want) {
		t.Error("the stream depends on how it is consumed")
	}
	direct := make([]float64, len(want))
	FillNormal(newSrc(9), direct)
	if !sameBits(direct, want) {
		t.Error("Normals differs from FillNormal")
	}
}

// TestFillNormalSplits: one FillNormal call equals several of even length
// (then an odd tail), and Normal is the first draw of a fill.
func TestFillNormalSplits(t *testing.T) {
	want := make([]float64, 1001)
	FillNormal(newSrc(4), want)
	r := newSrc(4)
	got := make([]float64, len(want))
	for lo := 0; lo < len(got); {
		hi := min(lo+2*(1+lo%300), len(got))
		FillNormal(r, got[lo:hi])
		lo = hi
	}
	if !sameBits(got, want) {
		t.Error("FillNormal depends on how the slice is split")
	}
	r1, r2 := newSrc(5), newSrc(5)
	var one [1]float64
	for i := 0; i < 10; i++ {
		FillNormal(r2, one[:])
		if v := Normal(r1); math.Float64bits(v) != math.Float64bits(one[0]) {
			t.Fatalf("draw %d: Normal %v, FillNormal %v", i, v, one[0])
		}
	}
	if r1.Uint64() != r2.Uint64() {
		t.Error("Normal and FillNormal consume different amounts")
	}
}

// TestCauchyQuantiles checks the Cauchy draws' quartiles (±1) and median.
func TestCauchyQuantiles(t *testing.T) {
	const n = 200000
	r := newSrc(6)
	v := make([]float64, n)
	for i := range v {
		v[i] = Cauchy(r)
		if math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
			t.Fatalf("draw %d is %v", i, v[i])
		}
	}
	slices.Sort(v)
	q1, q2, q3 := v[n/4], v[n/2], v[3*n/4]
	if math.Abs(q1+1) > 0.02 || math.Abs(q2) > 0.02 || math.Abs(q3-1) > 0.02 {
		t.Errorf("quartiles %.4f %.4f %.4f, want -1 0 1", q1, q2, q3)
	}
}

func TestNoAllocs(t *testing.T) {
	r := newSrc(1)
	dst := make([]float64, 300)
	if a := testing.AllocsPerRun(10, func() { Normal(r); Cauchy(r); FillNormal(r, dst) }); a != 0 {
		t.Errorf("%v allocations per run", a)
	}
}

// golden is the FNV-64a hash of the little-endian bits of 5001 FillNormal
// draws and 1000 Cauchy draws, recorded on amd64 and checked on arm64 (NEON
// and purego) and with -tags purego: a failure means the draws are no longer
// bit-reproducible there, or the stream changed (a breaking change for every
// seeded fit: update deliberately).
const golden = 0xa8f4b72d0f3da8b

func TestGolden(t *testing.T) {
	r := newSrc(2)
	v := make([]float64, 5001, 6001)
	FillNormal(r, v)
	for range 1000 {
		v = append(v, Cauchy(r))
	}
	h := fnv.New64a()
	var b [8]byte
	for _, x := range v {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
	if got := h.Sum64(); got != golden {
		t.Errorf("hash %#x, want %#x", got, uint64(golden))
	}
}
