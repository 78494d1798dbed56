package onlinestream

import (
	"math"
	"slices"
	"testing"
)

func TestNew(t *testing.T) {
	const n, d = 50, 3
	X, y := make([]float64, n*d), make([]float64, n)
	for i := range n {
		for j := range d {
			X[i*d+j] = float64(i*(j+1)) + 7
		}
		X[i*d+2] = 4 // a constant column: scaled by 1
		y[i] = float64(i)
	}
	orig := slices.Clone(X)
	s := New(X, y, n, d, 1, 2, n, true)
	if !slices.Equal(X, orig) {
		t.Fatal("New changed X")
	}
	// Each stream row is some input row, moved with its target, standardised.
	seen := map[int]bool{}
	for i := range n {
		k := int(math.Round(s.Y[i]*math.Sqrt(float64(n*n-1)/12) + float64(n-1)/2))
		if seen[k] {
			t.Fatalf("row %d appears twice", k)
		}
		seen[k] = true
		want0 := (float64(k) + 7 - (float64(n-1)/2 + 7)) / math.Sqrt(float64(n*n-1)/12)
		if math.Abs(s.X[i*d]-want0) > 1e-12 || s.X[i*d+2] != 0 {
			t.Fatalf("row %d: %v, want x0 %v and x2 0", i, s.X[i*d:(i+1)*d], want0)
		}
	}
	if slices.Equal(s.Y[:10], []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Error("rows not permuted")
	}
	// Same seed and tag, same stream; another tag, another order.
	if u := New(X, y, n, d, 1, 2, n, true); !slices.Equal(u.X, s.X) {
		t.Error("not deterministic")
	}
	if u := New(X, y, n, d, 1, 3, n, true); slices.Equal(u.Y, s.Y) {
		t.Error("the tag does not change the order")
	}
}
