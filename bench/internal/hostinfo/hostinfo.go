// Package hostinfo describes the machine a reproduction command ran on,
// for the headers of its result files.
package hostinfo

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/rfkit/rfkit/internal/asm"
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

// CommandLine is the line a result file opens with: how to re-run it (the
// command's name and the process's arguments), its wall time, the extras
// given (e.g. "3 seeds"), and the machine (GOMAXPROCS, platform, kernel
// path, CPUs, host, load average at the end), ending in a period.
func CommandLine(name string, wall time.Duration, extras ...string) string {
	host, _ := os.Hostname()
	var b strings.Builder
	fmt.Fprintf(&b, "Command: `go run ./bench/cmd/%s %s` — %s wall, ", name, strings.Join(os.Args[1:], " "), wall.Round(time.Second))
	for _, e := range extras {
		b.WriteString(e + ", ")
	}
	fmt.Fprintf(&b, "GOMAXPROCS %d, %s/%s (kernel path %s), %d CPUs, host %s, load average at the end %s.",
		runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, asm.Selected(), runtime.NumCPU(), host, LoadAverage())
	return b.String()
}
