package kit

import (
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
)

// Threads checks a Threads field: 0 (GOMAXPROCS) or 1..limit.Threads.
func (c *Check) Threads(t learners.Threads) {
	c.Count("Threads", int(t), limit.Threads, "GOMAXPROCS")
}
