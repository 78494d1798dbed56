package solvers

import (
	"math"
	"testing"
)

// Sizes whose state would not fit, or whose product overflows, give an
// error, not "fatal error: out of memory" (adversarial review, H4).
func TestNewLBFGSHostileSizes(t *testing.T) {
	for _, s := range [][2]int{{1 << 40, 5}, {math.MaxInt, 1}, {2, math.MaxInt}, {1 << 20, 1 << 20}, {MaxLBFGSValues, 0}} {
		if _, err := NewLBFGS(s[0], s[1]); err == nil {
			t.Errorf("NewLBFGS(%d, %d): no error", s[0], s[1])
		}
	}
	if _, err := NewLBFGS(1000, 5); err != nil {
		t.Errorf("NewLBFGS(1000, 5): %v", err)
	}
}
