package kit

import (
	"github.com/rfkit/rfkit/learners"
)

// Missing checks a Missing field.
func (c *Check) Missing(m learners.Missing) {
	c.If(m != learners.MissingError && m != learners.MissingImpute, "Missing = %v, want error or impute", m)
}
