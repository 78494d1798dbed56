package linrf

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
)

// BenchmarkScore compares, on one map, the read-out rks and rfselect used
// before the shared body (map to D features, then an FMA dot product) with
// the fused epilogue every linear learner now uses (CombineRow).
func BenchmarkScore(b *testing.B) {
	for _, sz := range []struct{ d, D int }{{20, 100}, {20, 1000}} {
		rff, err := featmap.NewRFF(featmap.RFFConfig{Inputs: sz.d, Features: sz.D, Gamma: 0.1, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		coef := make([]float64, sz.D)
		for j := range coef {
			coef[j] = float64(j%7) - 3
		}
		x := make([]float64, sz.d)
		for k := range x {
			x[k] = float64(k%5) - 2
		}
		z := make([]float64, sz.D)
		h := &Head{RFF: rff, Coef: coef}
		var sink float64
		b.Run(fmt.Sprintf("d=%d/D=%d/form=map-dot", sz.d, sz.D), func(b *testing.B) {
			runtime.GOMAXPROCS(1)
			for b.Loop() {
				rff.TransformRow(z, x)
				sink += xmath.Dot(coef, z)
			}
		})
		b.Run(fmt.Sprintf("d=%d/D=%d/form=fused", sz.d, sz.D), func(b *testing.B) {
			runtime.GOMAXPROCS(1)
			for b.Loop() {
				sink += h.Score(x, nil)
			}
		})
		_ = sink
	}
}
