package solvers

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWarmStart: from the subsample's solution the logistic head reaches the
// minimiser it reaches from zero (to the solver's tolerance).
func TestWarmStart(t *testing.T) {
	n, D, lambda := warmStride*warmRows, 10, 1e-3
	r := rand.New(rand.NewPCG(1, 2))
	z, y := make([]float64, n*D), make([]float64, n)
	for i := range n {
		var s float64
		for j := range D {
			v := r.NormFloat64() / 3
			z[i*D+j] = v
			s += v * float64(j%3-1)
		}
		y[i] = -1
		if s+0.3*r.NormFloat64() > 0 {
			y[i] = 1
		}
	}
	init, err := warmStart(z, n, D, y, lambda)
	if err != nil {
		t.Fatal(err)
	}
	if len(init) != D+1 {
		t.Fatalf("warm start has %d values, want %d", len(init), D+1)
	}
	var cold, warm Result
	w0, b0, err := Logistic(z, n, D, y, lambda, LogisticOptions{Memory: logisticMemory, Info: &cold})
	if err != nil {
		t.Fatal(err)
	}
	w1, b1, err := Logistic(z, n, D, y, lambda, LogisticOptions{Memory: logisticMemory, Init: init, Info: &warm})
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range append(w1, b1) {
		ref := append(w0, b0)[j]
		if math.Abs(v-ref) > 1e-6*(1+math.Abs(ref)) {
			t.Errorf("coefficient %d: warm %v, cold %v", j, v, ref)
		}
	}
	t.Logf("evaluations: cold %d, warm %d (after the subsample's)", cold.Evaluations, warm.Evaluations)
}
