package bench

import (
	"testing"
	"time"
)

// sweepReport adds to report's ms/op and GFLOP/s the CPU time per op since
// cpu0 (all threads together) and the wall and CPU time per sample.
func sweepReport(b *testing.B, flops float64, n int, cpu0 time.Duration) {
	cpu := float64((cpuNow() - cpu0).Nanoseconds()) / float64(b.N)
	report(b, flops)
	b.ReportMetric(cpu/1e6, "cpu-ms/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sample")
	b.ReportMetric(cpu/float64(n), "cpu-ns/sample")
}
