package cputime

import (
	"runtime"
	"testing"
)

// TestProcessGrows: a busy loop of the test itself shows up in the reading
// (on the platforms that report it).
func TestProcessGrows(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no CPU time here")
	}
	t0 := Process()
	x := 1.0
	for Process()-t0 < 20e6 { // 20 ms
		for i := 0; i < 1e5; i++ {
			x = x*1.0000001 + 1e-9
		}
	}
	if x == 0 || Process() <= t0 {
		t.Fatalf("CPU time did not grow: %v → %v", t0, Process())
	}
}
