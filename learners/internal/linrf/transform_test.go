package linrf

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// TestTransformThreads: Transform under any thread limit writes the bits
// of the map's own Transform, for row counts around the block size and on
// a strided view; a shape error is the map's.
func TestTransformThreads(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0))))
	const d, D = 5, 40
	rff, err := featmap.NewRFF(featmap.RFFConfig{Inputs: d, Features: D, Gamma: 0.3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 256, 257, 1000} {
		data := make([]float64, n*(d+2))
		for i := range data {
			data[i] = math.Sin(float64(i))
		}
		X := featmap.Matrix{Rows: n, Cols: d, Stride: d + 2, Data: data}
		want := make([]float64, n*D)
		if err := rff.Transform(featmap.Dense(n, D, want), X); err != nil {
			t.Fatal(err)
		}
		for _, th := range []learners.Threads{0, 1, 2, 3} {
			got := make([]float64, n*D)
			if err := Transform(rff, featmap.Dense(n, D, got), X, th); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("n=%d, threads %d: features differ", n, th)
			}
		}
	}
	X := featmap.Dense(300, d, make([]float64, 300*d))
	if err := Transform(rff, featmap.Dense(299, D, make([]float64, 299*D)), X, 2); !errors.Is(err, featmap.ErrShape) {
		t.Errorf("299 output rows for 300: %v", err)
	}
}
