package featmap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTaylorApproximatesKernel: the degree-p truncation of
// exp(x·x'/σ²) leaves a remainder below (x·x'/σ²)^{p+1}/(p+1)!·e^{|x·x'|/σ²};
// the test checks the inner product against the exact kernel within that
// bound (plus rounding), and that degree 2 is closer than degree 1.
func TestTaylorApproximatesKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 7))
	const d, sigma = 4, 2.0
	for trial := 0; trial < 200; trial++ {
		x, y := make([]float64, d), make([]float64, d)
		for k := range x {
			x[k], y[k] = 0.5*r.NormFloat64(), 0.5*r.NormFloat64()
		}
		var sq, dot float64
		for k := range x {
			sq += (x[k] - y[k]) * (x[k] - y[k])
			dot += x[k] * y[k]
		}
		exact := math.Exp(-sq / (2 * sigma * sigma))
		var errs [3]float64
		for p := 1; p <= 2; p++ {
			m, err := NewTaylor(d, p, sigma, false)
			if err != nil {
				t.Fatal(err)
			}
			fx, fy := make([]float64, m.Outputs()), make([]float64, m.Outputs())
			m.TransformRow(fx, x)
			m.TransformRow(fy, y)
			var ip float64
			for k := range fx {
				ip += fx[k] * fy[k]
			}
			a := math.Abs(dot) / (sigma * sigma)
			fact := 1.0
			for i := 2; i <= p+1; i++ {
				fact *= float64(i)
			}
			gx := math.Exp(-(sq + 2*dot) / (2 * sigma * sigma)) // e^{−(‖x‖²+‖y‖²)/2σ²}
			bound := gx*math.Pow(a, float64(p+1))/fact*math.Exp(a) + 1e-15
			errs[p] = math.Abs(ip - exact)
			if errs[p] > bound {
				t.Fatalf("p=%d: ⟨φ(x),φ(y)⟩ = %v, kernel %v, error %g > bound %g", p, ip, exact, errs[p], bound)
			}
		}
		if errs[2] > errs[1]+1e-15 {
			t.Fatalf("degree 2 (%g) worse than degree 1 (%g)", errs[2], errs[1])
		}
	}
}

func TestTaylorShapes(t *testing.T) {
	for _, c := range []struct {
		d, p   int
		linear bool
		want   int
	}{{3, 1, false, 4}, {3, 1, true, 7}, {3, 2, false, 10}, {5, 2, true, 26}} {
		m, err := NewTaylor(c.d, c.p, 1, c.linear)
		if err != nil {
			t.Fatal(err)
		}
		if m.Outputs() != c.want {
			t.Errorf("d=%d p=%d linear=%v: %d outputs, want %d", c.d, c.p, c.linear, m.Outputs(), c.want)
		}
		X := Dense(2, c.d, make([]float64, 2*c.d))
		X.Data[1] = 3
		Z := Dense(2, c.want, make([]float64, 2*c.want))
		if err := m.Transform(Z, X); err != nil {
			t.Fatal(err)
		}
		if c.linear && Z.Row(0)[c.want-c.d+1] != 3 {
			t.Errorf("linear features not at the end: %v", Z.Row(0))
		}
	}
	for _, bad := range [][3]float64{{0, 1, 1}, {2, 3, 1}, {2, 1, 0}, {2, 1, math.Inf(1)}} {
		if _, err := NewTaylor(int(bad[0]), int(bad[1]), bad[2], false); err == nil {
			t.Errorf("NewTaylor%v accepted", bad)
		}
	}
}
