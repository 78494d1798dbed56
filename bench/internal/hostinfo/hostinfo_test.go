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
