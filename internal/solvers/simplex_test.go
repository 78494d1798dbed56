package solvers

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteProjectSimplex enumerates the supports S: on S, x = v − θ with
// θ = (Σ_S v − s)/|S|; the feasible candidate closest to v is the projection.
func bruteProjectSimplex(v []float64, s float64) []float64 {
	n := len(v)
	var best []float64
	bestD := math.Inf(1)
	for mask := 1; mask < 1<<n; mask++ {
		var sum float64
		k := 0
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				sum += v[i]
				k++
			}
		}
		theta := (sum - s) / float64(k)
		x := make([]float64, n)
		ok := true
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				x[i] = v[i] - theta
				if x[i] < 0 {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		var dist float64
		for i := range x {
			dist += (x[i] - v[i]) * (x[i] - v[i])
		}
		if dist < bestD {
			best, bestD = x, dist
		}
	}
	return best
}

func TestProjectSimplex(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(6)
		v := make([]float64, n)
		for i := range v {
			v[i] = 3 * rng.NormFloat64()
			if rng.IntN(4) == 0 && i > 0 {
				v[i] = v[i-1] // ties
			}
		}
		s := 0.1 + 5*rng.Float64()
		x := make([]float64, n)
		if err := ProjectSimplex(x, v, s); err != nil {
			t.Fatal(err)
		}
		want := bruteProjectSimplex(v, s)
		var sum float64
		for i := range x {
			if math.Abs(x[i]-want[i]) > 1e-12*(1+s) {
				t.Fatalf("v = %v, s = %v: got %v, want %v", v, s, x, want)
			}
			if x[i] < 0 {
				t.Fatalf("negative entry %v", x)
			}
			sum += x[i]
		}
		if math.Abs(sum-s) > 1e-12*(1+s) {
			t.Fatalf("sum %v, want %v", sum, s)
		}
		// Idempotent, and in place.
		x2 := append([]float64(nil), x...)
		if err := ProjectSimplex(x2, x2, s); err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if math.Abs(x2[i]-x[i]) > 1e-13*(1+s) {
				t.Fatalf("not idempotent: %v → %v", x, x2)
			}
		}
	}
	for _, c := range []struct {
		dst, v []float64
		s      float64
	}{
		{make([]float64, 2), []float64{1, 2}, 0},
		{make([]float64, 2), []float64{1, 2}, -1},
		{make([]float64, 2), []float64{1, 2}, math.Inf(1)},
		{make([]float64, 1), []float64{1, 2}, 1},
		{nil, nil, 1},
		{make([]float64, 2), []float64{1, math.NaN()}, 1},
	} {
		if err := ProjectSimplex(c.dst, c.v, c.s); err == nil {
			t.Errorf("ProjectSimplex(%v, %v, %v): no error", c.dst, c.v, c.s)
		}
	}
}
