package kit

import (
	"github.com/rfkit/rfkit/learners"

	"fmt"
	"strings"
)

// Check validates the fields of a Config one by one and keeps the first
// error, which names the package and the field: every learner's
// Config.Validate is a list of its calls. The zero value of a field means
// its default, so the checks accept 0 unless said otherwise.
type Check struct {
	pkg string
	err error
}

// NewCheck starts a Check whose errors begin with "pkg: ".
func NewCheck(pkg string) *Check { return &Check{pkg: pkg} }

// Err returns the first error, or nil.
func (c *Check) Err() error { return c.err }

// Fail records "pkg: " + the formatted text if no error is recorded yet.
func (c *Check) Fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(c.pkg+": "+format, args...)
	}
}

// If records the formatted error when bad holds.
func (c *Check) If(bad bool, format string, args ...any) {
	if bad {
		c.Fail(format, args...)
	}
}

// Count checks an integer field: 0 (the default def) or 1..hi.
func (c *Check) Count(name string, v, hi int, def any) {
	c.If(v < 0 || v > hi, "%s = %d, want 1..%d (0 for the default %v)", name, v, hi, def)
}

// Positive checks a real field: 0 (the default def) or finite in (0, hi].
func (c *Check) Positive(name string, v, hi float64, def any) {
	c.If(!(v >= 0 && v <= hi), "%s = %v, want a finite value in (0, %g] (0 for the default %v)", name, v, hi, def)
}

// Range checks a real field against the closed interval [lo, hi] (NaN is
// out of range).
func (c *Check) Range(name string, v, lo, hi float64) {
	c.If(!(v >= lo && v <= hi), "%s = %v, want a value in [%g, %g]", name, v, lo, hi)
}

// Task checks that t is Binary or Regression (a learner without a
// multiclass model: Multiclass is refused with an error that says so).
func (c *Check) Task(t learners.Task) {
	c.If(t == learners.Multiclass, "Task = multiclass: this learner does binary classification and regression only")
	c.If(t != learners.Binary && t != learners.Regression, "Task = %v, want binary or regression", t)
}

// TaskIn checks that t is one of the tasks a learner can fit.
func (c *Check) TaskIn(t learners.Task, tasks ...learners.Task) {
	for _, v := range tasks {
		if t == v {
			return
		}
	}
	names := make([]string, len(tasks))
	for i, v := range tasks {
		names[i] = v.String()
	}
	c.Fail("Task = %v, want %s", t, strings.Join(names, ", "))
}

// Toggles checks that every named Toggle is one of its three values.
func (c *Check) Toggles(names string, t ...learners.Toggle) {
	for _, v := range t {
		c.If(v != learners.Default && v != learners.Enabled && v != learners.Disabled, "%s = %v, want a learners.Toggle value", names, t)
	}
}
