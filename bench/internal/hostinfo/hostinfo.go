// Package hostinfo describes the machine a reproduction command ran on,
// for the headers of its result files.
package hostinfo

import (
	"os"
	"strings"
)

// LoadAverage returns the 1, 5 and 15 minute load averages from
// /proc/loadavg ("?" where there is none): on a shared machine they say
// how far wall times can be trusted.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// CPUName returns the CPU's model name from /proc/cpuinfo ("unknown CPU"
// where there is none): these machines are shared and of several kinds, so
// a result file names the one it was measured on.
func CPUName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
