package synth

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestLogPos(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{1, 2, 0.5, math.E, math.Sqrt2 / 2, math.Sqrt2, 0x1p-53, 1 - 0x1p-53, 1 + 0x1p-52,
		math.SmallestNonzeroFloat64, 0x1p-1022, math.MaxFloat64, 1e-300, 1e300}
	for range 100000 {
		xs = append(xs, math.Exp(60*(r.Float64()-0.5)))
	}
	for _, x := range xs {
		got, want := logPos(x), math.Log(x)
		if x < 0x1p-1022 { // math.Log on amd64 mishandles subnormals (golang/go#56600)
			want = math.Log(x*0x1p200) - 200*math.Ln2
		}
		tol := 4 * math.Abs(want) * 0x1p-53
		if want == 0 {
			tol = 0
		}
		if math.Abs(got-want) > tol {
			t.Fatalf("logPos(%v) = %v, math.Log = %v (diff %g)", x, got, want, got-want)
		}
	}
}

// TestNormalsMoments checks the Box–Muller stream against N(0, 1).
func TestNormalsMoments(t *testing.T) {
	const n = 400000
	g := newNormals(3, tagGaussian)
	var m1, m2, m3, m4 float64
	tail := 0
	for range n {
		z := g.next()
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
// is read (one at a time or in slices crossing block boundaries).
func TestNormalsConsumption(t *testing.T) {
	a, b := newNormals(9, 1), newNormals(9, 1)
	want := make([]float64, 3*normalBlock+7)
	a.fill(want)
	got := make([]float64, 0, len(want))
	for len(got) < len(want) {
		k := min(1+len(got)%331, len(want)-len(got))
		chunk := make([]float64, k)
		b.fill(chunk)
		got = append(got, chunk...)
	}
	if !sameBits(got, want) {
		t.Error("the stream depends on how it is consumed")
	}
}
