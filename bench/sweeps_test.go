package bench

import (
	"syscall"
	"testing"
	"time"
)

// cpuNow is the CPU time (user + system) the process has used. On the
// shared machines rfkit is measured on, wall time per op grows with the run
// queue; CPU time does not, and at procs=1 it is the benchmark goroutine's
// own time (the idle worker pool and the GC add next to nothing).
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sweepReport adds to report's ms/op and GFLOP/s the CPU time per op since
// cpu0 (all threads together) and the wall and CPU time per sample.
func sweepReport(b *testing.B, flops float64, n int, cpu0 time.Duration) {
	cpu := float64((cpuNow() - cpu0).Nanoseconds()) / float64(b.N)
	report(b, flops)
	b.ReportMetric(cpu/1e6, "cpu-ms/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sample")
	b.ReportMetric(cpu/float64(n), "cpu-ns/sample")
}
