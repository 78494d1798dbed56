//go:build !unix

package bench

import "time"

// cpuNow is not measured here: CPU-time metrics read 0.
func cpuNow() time.Duration { return 0 }
