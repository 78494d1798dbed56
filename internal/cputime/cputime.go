// Package cputime reads the CPU time the process has used, for benchmarks and
// reproduction commands on shared machines: there the wall time of a
// one-core run grows with the run queue, its CPU time much less so.
package cputime

import "time"

// Process returns the user + system CPU time of the process so far, or 0
// where the platform does not report it (then differences read 0 too).
func Process() time.Duration { return process() }
