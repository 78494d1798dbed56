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

// TestSoftmaxSoftmin: probabilities that sum to 1, in the order of the
// scores, no overflow at ±1e300, and Softmin(ℓ, t) = Softmax(−t·ℓ).
func TestSoftmaxSoftmin(t *testing.T) {
	for _, s := range [][]float64{{0}, {1, 2, 3}, {-1e300, 0, 1e300}, {5, 5}} {
		p := make([]float64, len(s))
		Softmax(p, s)
		var sum float64
		for k, v := range p {
			sum += v
			if !(v >= 0 && v <= 1) || (k > 0 && s[k] > s[k-1] && p[k] < p[k-1]) {
				t.Fatalf("Softmax(%v) = %v", s, p)
			}
		}
		if math.Abs(sum-1) > 1e-15 {
			t.Fatalf("Softmax(%v) sums to %v", s, sum)
		}
		if len(s) == 3 && s[0] == 1 {
			q, neg := make([]float64, 3), []float64{-0.5, -1, -1.5}
			Softmin(q, s, 0.5)
			Softmax(p, neg)
			for k := range q {
				if math.Abs(q[k]-p[k]) > 1e-15 {
					t.Fatalf("Softmin %v, Softmax of −tℓ %v", q, p)
				}
			}
		}
	}
}
