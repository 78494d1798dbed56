package featmap

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestScaledErrors(t *testing.T) {
	if _, err := NewScaled(0, 3, false, 1); err == nil {
		t.Error("zero inputs accepted")
	}
	s, _ := NewScaled(2, 3, false, 1)
	if s.SetScales([]float64{1}) == nil || s.SetScales([]float64{1, math.NaN()}) == nil {
		t.Error("bad scales accepted")
	}
}

// TestScaledTransformAfterSetScales: Transform packs W once for the blocked
// kernel; SetScales rewrites W, and the next Transform must use the new W
// (the packed copy is dropped), bit for bit what TransformRow gives.
func TestScaledTransformAfterSetScales(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	const n, d, D = 50, 40, 30
	s, err := NewScaled(d, D, false, 2)
	if err != nil {
		t.Fatal(err)
	}
	X := randMatrix(r, n, d, d)
	Z := Dense(n, D, make([]float64, n*D))
	row := make([]float64, D)
	for step := 0; step < 2; step++ {
		if err := s.Transform(Z, X); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			s.Map().TransformRow(row, X.Row(i))
			for j := range row {
				if math.Float64bits(row[j]) != math.Float64bits(Z.Row(i)[j]) {
					t.Fatalf("step %d: [%d,%d] Transform %v, TransformRow %v", step, i, j, Z.Row(i)[j], row[j])
				}
			}
		}
		g := make([]float64, d)
		for k := range g {
			g[k] = 0.5 + r.Float64()
		}
		if err := s.SetScales(g); err != nil {
			t.Fatal(err)
		}
	}
}
