package featmap

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCombine: Combine equals Transform followed by the dot product with the
// coefficients, to rounding (D terms of size ≤ |coef|·scale, so the
// tolerance is D·ε·Σ|coef|·scale, with a factor 16 of slack).
func TestCombine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, pair := range []bool{false, true} {
		for _, D := range []int{1, 7, 8, 33, 300} {
			m, err := NewRFF(RFFConfig{Inputs: 5, Features: D, Gamma: 0.3, Pair: pair, Seed: 9})
			if err != nil {
				t.Fatal(err)
			}
			n := 301
			X := Dense(n, 5, make([]float64, n*5))
			for i := range X.Data {
				X.Data[i] = r.NormFloat64()
			}
			coef := make([]float64, m.Outputs())
			var sabs float64
			for j := range coef {
				coef[j] = r.NormFloat64()
				sabs += math.Abs(coef[j])
			}
			Z := Dense(n, m.Outputs(), make([]float64, n*m.Outputs()))
			if err := m.Transform(Z, X); err != nil {
				t.Fatal(err)
			}
			got := make([]float64, n)
			if err := m.Combine(got, X, coef); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				var want float64
				for j, c := range coef {
					want += c * Z.Data[i*m.Outputs()+j]
				}
				tol := 16 * float64(m.Outputs()) * 0x1p-52 * sabs * m.Scale()
				if math.Abs(got[i]-want) > tol {
					t.Fatalf("pair=%v D=%d row %d: Combine %v, Transform·coef %v", pair, D, i, got[i], want)
				}
			}
		}
	}
	m, _ := NewRFF(RFFConfig{Inputs: 2, Features: 4, Gamma: 1})
	if err := m.Combine(make([]float64, 1), Dense(1, 2, []float64{1, 2}), make([]float64, 3)); !errors.Is(err, ErrShape) {
		t.Errorf("wrong coefficient count: %v", err)
	}
	if a := testing.AllocsPerRun(20, func() { m.CombineRow([]float64{1, 2}, []float64{1, 2, 3, 4}) }); a != 0 {
		t.Errorf("CombineRow: %v allocations", a)
	}
}
