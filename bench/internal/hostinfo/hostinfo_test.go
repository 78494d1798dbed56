package hostinfo

import (
	"strings"
	"testing"
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
