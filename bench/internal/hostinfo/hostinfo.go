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
