package solvers

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/exactsum"
)

// TestRidgeSumsMatchRidge: a ridge fit assembled from per-block sums added
// exactly in another order (as a distributed fit does) has Ridge's bits,
// for one block and for several with a short last one.
func TestRidgeSumsMatchRidge(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{300, 2*exactsum.Block + 77} {
		const d = 7
		X, y := make([]float64, n*d), make([]float64, n)
		for i := range X {
			X[i] = r.NormFloat64() + 3 // an offset, so that centring matters
		}
		for i := range y {
			y[i] = X[i*d] - 2*X[i*d+3] + 0.1*r.NormFloat64() + 5
		}
		w, bias, err := Ridge(X, n, d, y, 1e-3, RidgeOptions{})
		if err != nil {
			t.Fatal(err)
		}

		var blocks [][2]int
		for lo := 0; lo < n; lo += exactsum.Block {
			blocks = append(blocks, [2]int{lo, min(lo+exactsum.Block, n)})
		}
		// pass 1, blocks last to first: the means
		means := exactsum.New(d + 1)
		for k := len(blocks) - 1; k >= 0; k-- {
			part := make([]float64, d+1)
			for i := blocks[k][0]; i < blocks[k][1]; i++ {
				for j := range d {
					part[j] += X[i*d+j]
				}
				part[d] += y[i]
			}
			means.AddSlice(0, part)
		}
		mean := make([]float64, d+1)
		means.Floats(mean)
		for j := range mean {
			mean[j] /= float64(n)
		}
		// pass 2, blocks in a shuffled order: the centred system
		sums := exactsum.New(d*(d+1)/2 + d)
		for _, k := range r.Perm(len(blocks)) {
			lo, hi := blocks[k][0], blocks[k][1]
			m := hi - lo
			xct, yc := make([]float64, d*m), make([]float64, m)
			for i := lo; i < hi; i++ {
				for j := range d {
					xct[j*m+i-lo] = X[i*d+j] - mean[j]
				}
				yc[i-lo] = y[i] - mean[d]
			}
			sums.AddSlice(0, RidgeBlockSums(nil, xct, m, d, yc))
		}
		tot := make([]float64, sums.Len())
		sums.Floats(tot)
		w2, bias2, err := SolveRidgeSums(tot, n, d, 1e-3, mean[:d], mean[d])
		if err != nil {
			t.Fatal(err)
		}
		for j := range w {
			if math.Float64bits(w[j]) != math.Float64bits(w2[j]) {
				t.Fatalf("n = %d: w[%d] = %v from Ridge, %v from the sums", n, j, w[j], w2[j])
			}
		}
		if math.Float64bits(bias) != math.Float64bits(bias2) {
			t.Fatalf("n = %d: bias %v from Ridge, %v from the sums", n, bias, bias2)
		}
	}
}

func TestSolveRidgeSumsErrors(t *testing.T) {
	good := []float64{2, 0.5, 3, 1, 1} // d = 2: triangle (3), then Xᵀy (2)
	mean := []float64{0, 0}
	for name, f := range map[string]func() error{
		"n = 0":      func() error { _, _, err := SolveRidgeSums(good, 0, 2, 1, mean, 0); return err },
		"short sums": func() error { _, _, err := SolveRidgeSums(good[:4], 10, 2, 1, mean, 0); return err },
		"short mean": func() error { _, _, err := SolveRidgeSums(good, 10, 2, 1, mean[:1], 0); return err },
		"λ < 0":      func() error { _, _, err := SolveRidgeSums(good, 10, 2, -1, mean, 0); return err },
		"NaN sum": func() error {
			_, _, err := SolveRidgeSums([]float64{2, math.NaN(), 3, 1, 1}, 10, 2, 1, mean, 0)
			if !errors.Is(err, ErrNotFinite) {
				t.Errorf("NaN sum: %v, want ErrNotFinite", err)
			}
			return err
		},
		"Inf ȳ":    func() error { _, _, err := SolveRidgeSums(good, 10, 2, 1, mean, math.Inf(1)); return err },
		"singular": func() error { _, _, err := SolveRidgeSums([]float64{1, 1, 1, 1, 1}, 10, 2, 0, mean, 0); return err },
	} {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, _, err := SolveRidgeSums(good, 10, 2, 0.1, mean, 0); err != nil {
		t.Errorf("good sums: %v", err)
	}
}
