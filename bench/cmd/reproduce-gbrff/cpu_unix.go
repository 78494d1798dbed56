//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the user + system CPU time of the process so far, or −1.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
