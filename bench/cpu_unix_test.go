//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuTime is the user + system CPU time of the process so far, or −1: on a
// machine shared with other jobs, the CPU seconds of a one-core fit are a
// steadier measure than its wall time, which counts the time it waited for
// the core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
