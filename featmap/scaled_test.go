package featmap

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// objective is Σ_i u_i Σ_j v_j z_j(x_i) at the current scales.
func objective(t *testing.T, s *Scaled, X Matrix, u, v []float64) float64 {
	Z := Dense(X.Rows, s.Map().Outputs(), make([]float64, X.Rows*s.Map().Outputs()))
	if err := s.Transform(Z, X); err != nil {
		t.Fatal(err)
	}
	var f float64
	for i := 0; i < X.Rows; i++ {
		for j, z := range Z.Row(i) {
			f += u[i] * v[j] * z
		}
	}
	return f
}

// TestScaleGradientFiniteDifferences: central differences with h = 1e-5 have
// truncation error O(h²·f⁽³⁾) ≈ 1e-10 relative here and rounding error
// ≈ 1e-16·|f|/h ≈ 1e-11, so 1e-6 relative agreement separates a correct
// gradient from any wrong sign, factor or missing term.
func TestScaleGradientFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	for _, pair := range []bool{false, true} {
		const d, D, n = 4, 30, 700
		s, err := NewScaled(d, D, pair, 3)
		if err != nil {
			t.Fatal(err)
		}
		gamma := []float64{0.5, 1.3, 0.1, 2}
		if err := s.SetScales(gamma); err != nil {
			t.Fatal(err)
		}
		X := randMatrix(r, n, d, d+1)
		u := make([]float64, n)
		v := make([]float64, s.Map().Outputs())
		for i := range u {
			u[i] = r.NormFloat64()
		}
		for i := range v {
			v[i] = r.NormFloat64()
		}
		grad := make([]float64, d)
		if err := s.ScaleGradient(grad, X, u, v); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < d; k++ {
			const h = 1e-5
			g := append([]float64(nil), gamma...)
			g[k] = gamma[k] + h
			_ = s.SetScales(g)
			fp := objective(t, s, X, u, v)
			g[k] = gamma[k] - h
			_ = s.SetScales(g)
			fm := objective(t, s, X, u, v)
			num := (fp - fm) / (2 * h)
			if math.Abs(num-grad[k]) > 1e-6*math.Max(1, math.Abs(num)) {
				t.Errorf("pair=%v k=%d: gradient %v, finite differences %v", pair, k, grad[k], num)
			}
		}
		_ = s.SetScales(gamma)
		// deterministic for any GOMAXPROCS
		big := randMatrix(r, 5000, d, d)
		ub := make([]float64, 5000)
		for i := range ub {
			ub[i] = r.NormFloat64()
		}
		var ref []float64
		for _, p := range []int{1, 2, 7} {
			old := runtime.GOMAXPROCS(p)
			g := make([]float64, d)
			if err := s.ScaleGradient(g, big, ub, v); err != nil {
				t.Fatal(err)
			}
			runtime.GOMAXPROCS(old)
			if ref == nil {
				ref = g
			}
			for k := range g {
				if math.Float64bits(g[k]) != math.Float64bits(ref[k]) {
					t.Fatalf("GOMAXPROCS=%d changes the gradient", p)
				}
			}
		}
	}
}

func TestScaledErrors(t *testing.T) {
	if _, err := NewScaled(0, 3, false, 1); err == nil {
		t.Error("zero inputs accepted")
	}
	s, _ := NewScaled(2, 3, false, 1)
	if s.SetScales([]float64{1}) == nil || s.SetScales([]float64{1, math.NaN()}) == nil {
		t.Error("bad scales accepted")
	}
	X := Dense(2, 2, make([]float64, 4))
	if s.ScaleGradient(make([]float64, 2), X, make([]float64, 3), make([]float64, 3)) == nil {
		t.Error("wrong u length accepted")
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
