package vec

import (
	"math"
	"testing"
)

// TestDot2: the eight chains combine to a·b + c·d (exact here: small
// integers), the tail included, for every length up to 9.
func TestDot2(t *testing.T) {
	for n := 0; n <= 9; n++ {
		a, b, c, d := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		var want float64
		for k := range n {
			a[k], b[k], c[k], d[k] = float64(k+1), float64(2*k-3), float64(k%3), float64(5-k)
			want += a[k]*b[k] + c[k]*d[k]
		}
		if got := Dot2(a, b, c, d); got != want {
			t.Errorf("n=%d: Dot2 = %v, want %v", n, got, want)
		}
	}
}

func TestArgmaxMargin(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		f          []float64
		skip, want int
		margin     float64
	}{
		{[]float64{1, 3, 2}, -1, 1, 1},
		{[]float64{1, 3, 2}, 1, 2, 1},
		{[]float64{3, 1, 3}, -1, 0, 0}, // the first on a tie; margin 0
		{[]float64{3, 1, 3}, 0, 2, 0},
		{[]float64{1, nan, 2}, -1, 2, 1}, // a NaN is passed over
		{[]float64{5}, 0, -1, math.Inf(1)},
	} {
		if got := Argmax(c.f, c.skip); got != c.want {
			t.Errorf("Argmax(%v, %d) = %d, want %d", c.f, c.skip, got, c.want)
		}
		if got := Margin(c.f); got != c.margin {
			t.Errorf("Margin(%v) = %v, want %v", c.f, got, c.margin)
		}
	}
}
