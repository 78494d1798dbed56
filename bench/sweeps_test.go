package bench

import (
	"testing"
	"time"

	"github.com/rfkit/rfkit/internal/cputime"
)

// sweepReport adds to report's ms/op and GFLOP/s the CPU time per op since
// cpu0 (all threads together) and the wall and CPU time per sample.
func sweepReport(b *testing.B, flops float64, n int, cpu0 time.Duration) {
	cpu := float64((cputime.Process() - cpu0).Nanoseconds()) / float64(b.N)
	report(b, flops)
	b.ReportMetric(cpu/1e6, "cpu-ms/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sample")
	b.ReportMetric(cpu/float64(n), "cpu-ns/sample")
}

// fastest records the shortest single iteration of a benchmark loop: on a
// machine shared with other jobs it is the iteration that ran with the
// fewest interruptions, the closest figure to an idle machine's (it still
// shares memory bandwidth with whatever runs on the other cores).
type fastest struct {
	last, best time.Duration
	start      time.Time
}

func newFastest() *fastest { return &fastest{best: time.Duration(1<<63 - 1), start: time.Now()} }

// lap ends one iteration (call it last in the loop body).
func (f *fastest) lap() {
	now := time.Since(f.start)
	f.best = min(f.best, now-f.last)
	f.last = now
}

func (f *fastest) report(b *testing.B) {
	b.ReportMetric(float64(f.best.Nanoseconds())/1e6, "min-ms/op")
}
