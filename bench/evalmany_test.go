package bench

import (
	"fmt"
	"testing"

	"github.com/rfkit/rfkit/internal/cputime"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/exploss"
)

// BenchmarkPhaseSearchMany: Phase.EvalMany with m candidate phases per pass
// (n = 100000); the metrics are per phase, to set next to
// BenchmarkPhaseSearch's one-phase Eval.
func BenchmarkPhaseSearchMany(b *testing.B) {
	p := newGBRFF2Problem(b)
	ph, err := exploss.NewPhase(p.c, p.s, p.yt)
	if err != nil {
		b.Fatal(err)
	}
	n := len(p.yt)
	const m = 8
	bs, f, df := make([]float64, m), make([]float64, m), make([]float64, m)
	for j := range bs {
		bs[j] = 0.1 + 0.7*float64(j)
	}
	for _, path := range []string{asm.Paths()[len(asm.Paths())-1]} {
		procs(b, fmt.Sprintf("n=%d/m=%d/path=%s", n, m, path), func(b *testing.B) {
			onePath(b, path, func(b *testing.B) {
				cpu := cputime.Process()
				for b.Loop() {
					if err := ph.EvalMany(bs, f, df); err != nil {
						b.Fatal(err)
					}
				}
				cpuPer := float64((cputime.Process() - cpu).Nanoseconds()) / float64(b.N) / m
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/m/1e6, "ms/phase")
				b.ReportMetric(cpuPer/1e6, "cpu-ms/phase")
			})
		})
	}
}
