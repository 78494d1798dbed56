//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuNow is the CPU time (user + system) the process has used. On a shared
// machine wall time per op grows with the run queue; CPU time much less so,
// and at one goroutine it is the benchmark's own time.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
