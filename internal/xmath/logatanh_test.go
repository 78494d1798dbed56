package xmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogAtanh: within 4 ULP of math.Log (moved from dataset/synth, whose
// Box–Muller normals and SE2 targets use it).
func TestLogAtanh(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{1, 2, 0.5, math.E, math.Sqrt2 / 2, math.Sqrt2, 0x1p-53, 1 - 0x1p-53, 1 + 0x1p-52,
		math.SmallestNonzeroFloat64, 0x1p-1022, math.MaxFloat64, 1e-300, 1e300}
	for range 100000 {
		xs = append(xs, math.Exp(60*(r.Float64()-0.5)))
	}
	for _, x := range xs {
		got, want := LogAtanh(x), math.Log(x)
		if x < 0x1p-1022 { // math.Log on amd64 mishandles subnormals (golang/go#56600)
			want = math.Log(x*0x1p200) - 200*math.Ln2
		}
		tol := 4 * math.Abs(want) * 0x1p-53
		if want == 0 {
			tol = 0
		}
		if math.Abs(got-want) > tol {
			t.Fatalf("LogAtanh(%v) = %v, math.Log = %v (diff %g)", x, got, want, got-want)
		}
	}
}
