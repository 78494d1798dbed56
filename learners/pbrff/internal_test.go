package pbrff

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/xrand"
)

// TestAgreementTwoClasses: the multiclass landmark loss is the binary one
// on two classes. With classes 0/1 for −1/+1, the multiclass sums of a
// landmark of class +1 are the binary sums Σ y_i cos, and those of a
// landmark of class −1 their negation, to the bit (negation is exact and
// rounding symmetric), so y_l·A of the binary path equals A of the
// multiclass one; also with weights.
func TestAgreementTwoClasses(t *testing.T) {
	const n, d, L, K = 700, 3, 6, 4
	r := rand.New(rand.NewPCG(1, 2))
	Z := make([]float64, n*d)
	xrand.FillNormal(r, Z)
	w := make([]float64, d*L*K)
	xrand.FillNormal(r, w)
	phase := make([]float64, L*K)
	for j := range phase {
		phase[j] = r.Float64()
	}
	signs, cls, wts := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range signs {
		signs[i], cls[i] = -1, 0
		if Z[i*d]+Z[i*d+1] > 0 {
			signs[i], cls[i] = 1, 1
		}
		wts[i] = 0.5 + float64(i%4)
	}
	lab := []int{0, 1, 1, 0, 0, 1}
	for _, ww := range [][]float64{nil, wts} {
		bin, err := agreement(context.Background(), 0, Z, n, d, w, phase, K, signs, nil, ww)
		if err != nil {
			t.Fatal(err)
		}
		mc, err := agreement(context.Background(), 0, Z, n, d, w, phase, K, cls, lab, ww)
		if err != nil {
			t.Fatal(err)
		}
		for j := range bin {
			yl := float64(2*lab[j/K] - 1)
			if math.Float64bits(yl*bin[j]) != math.Float64bits(mc[j]) || mc[j] == 0 {
				t.Fatalf("weights %v, j=%d: binary y_l·A = %v, multiclass A = %v", ww != nil, j, yl*bin[j], mc[j])
			}
		}
	}
}

// TestDrawLandmarks: integer weights draw the rows the unweighted draw
// picks on the data with each row repeated w_i times; real weights draw
// row i with frequency ≈ w_i/W; no weights keep rng.IntN(n).
func TestDrawLandmarks(t *testing.T) {
	w := []float64{2, 1, 3, 1, 1, 4, 1}
	var rows []int // the duplicated data: which original row each copy is
	for i, v := range w {
		for range int(v) {
			rows = append(rows, i)
		}
	}
	const L = 500
	got := drawLandmarks(rand.New(rand.NewPCG(3, 4)), len(w), L, w)
	dup := drawLandmarks(rand.New(rand.NewPCG(3, 4)), len(rows), L, nil)
	for l := range got {
		if got[l] != rows[dup[l]] {
			t.Fatalf("landmark %d: weighted row %d, duplicated copy of row %d", l, got[l], rows[dup[l]])
		}
	}
	rw := []float64{0.5, 0.25, 1.25, 2}
	const M = 40000
	count := make([]float64, len(rw))
	for _, i := range drawLandmarks(rand.New(rand.NewPCG(5, 6)), len(rw), M, rw) {
		count[i]++
	}
	for i, v := range rw {
		if p := v / 4; math.Abs(count[i]/M-p) > 4*math.Sqrt(p*(1-p)/M) {
			t.Errorf("row %d drawn with frequency %v, want %v", i, count[i]/M, p)
		}
	}
	r1, r2 := rand.New(rand.NewPCG(7, 8)), rand.New(rand.NewPCG(7, 8))
	for _, i := range drawLandmarks(r1, 9, 50, nil) {
		if i != r2.IntN(9) {
			t.Fatal("unweighted draws are not rng.IntN(n)")
		}
	}
}
