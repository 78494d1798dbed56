package gbrff

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestPaddedScoreBits: Score, which reads the expansion padded to a
// multiple of 8 terms (scoredTerms), returns the bits of asm.CosSum over the
// unpadded terms, on every SIMD path, for term counts on both sides of a
// multiple of 8 and for a loaded model; and on extreme standardised rows.
func TestPaddedScoreBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n, d := 400, 5
	X, y := make([]float64, n*d), make([]float64, n)
	for i := 0; i < n; i++ {
		var s float64
		for k := 0; k < d; k++ {
			X[i*d+k] = r.NormFloat64()
			s += X[i*d+k] * float64(k+1)
		}
		y[i] = math.Copysign(1, math.Sin(s))
	}
	rows := [][]float64{{0, 0, 0, 0, 0}, {1e300, -1e300, 3, 0, 1}, {-2, 5e-320, 7, 1, 1}}
	for i := 0; i < 40; i++ {
		rows = append(rows, X[i*d:(i+1)*d])
	}
	for _, T := range []int{1, 7, 8, 9, 13, 64, 70, 100} {
		m, err := Fit(context.Background(), featmap.Dense(n, d, X), y, Config{T: T, Seed: uint64(T)})
		if err != nil {
			t.Fatal(err)
		}
		loaded := learnertest.Reload(t, m, Load)
		for _, mm := range []*Model{m, loaded} {
			bd := mm.Body()
			if J := len(bd.b); len(bd.bp) != scoredTerms(J) || len(bd.bp)%8 != 0 || len(bd.bp) < J || len(bd.bp) >= J+64 {
				t.Fatalf("T = %d: %d terms padded to %d", T, J, len(bd.bp))
			}
			for _, path := range asm.Paths() {
				restore, err := asm.SetPath(path)
				if err != nil {
					t.Fatal(err)
				}
				for _, z := range rows {
					got := bd.Score(z, nil)
					want := bd.h0 + asm.CosSum(z, bd.w, len(bd.b), bd.b, bd.a)
					if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
						t.Errorf("T = %d, path %s, z %v: Score %v, unpadded CosSum %v", T, path, z, got, want)
					}
				}
				restore()
			}
		}
	}
}
