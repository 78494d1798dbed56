//go:build !unix

package asm

import "time"

// cpuNow is not measured here: CPU-time metrics read 0.
func cpuNow() time.Duration { return 0 }
