package hostinfo

import (
	"strings"
	"testing"
	"time"
)

func TestLoadAverage(t *testing.T) {
	got := LoadAverage()
	if got == "" || (got != "?" && len(strings.Fields(got)) != 3) {
		t.Errorf("LoadAverage() = %q, want three numbers or ?", got)
	}
}

func TestCPUName(t *testing.T) {
	got := CPUName()
	if got == "" || strings.Contains(got, "\n") || strings.HasPrefix(got, ":") {
		t.Errorf("CPUName() = %q", got)
	}
}

func TestCommandLine(t *testing.T) {
	got := CommandLine("x", 1500*time.Millisecond, "3 seeds")
	for _, want := range []string{"Command: `go run ./bench/cmd/x ", "` — 2s wall, 3 seeds, GOMAXPROCS ", "kernel path ", "load average at the end "} {
		if !strings.Contains(got, want) {
			t.Errorf("CommandLine = %q, missing %q", got, want)
		}
	}
	if !strings.HasSuffix(got, ".") {
		t.Errorf("CommandLine = %q, want a final period", got)
	}
}
