//go:build unix

package asm

import "syscall"

// cpuSeconds is the process's user + system CPU time: on a machine shared
// with other jobs it shows the cost of the work apart from the time spent
// waiting for a core (wall-clock ms/op includes that wait).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
