package kit

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
)

// TestDefaults: SetDefault fills only a zero field; ByTask keeps a set
// value and otherwise picks the classification or the regression default.
func TestDefaults(t *testing.T) {
	a, b := 0, 3
	SetDefault(&a, 7)
	SetDefault(&b, 7)
	if a != 7 || b != 3 {
		t.Fatalf("SetDefault: %d, %d", a, b)
	}
	for _, c := range []struct {
		v    string
		task learners.Task
		want string
	}{{"", learners.Binary, "c"}, {"", learners.Multiclass, "c"}, {"", learners.Regression, "r"}, {"x", learners.Regression, "x"}, {"x", learners.Binary, "x"}} {
		if got := ByTask(c.v, c.task, "c", "r"); got != c.want {
			t.Errorf("ByTask(%q, %v) = %q, want %q", c.v, c.task, got, c.want)
		}
	}
}
