package kit

import "github.com/rfkit/rfkit/learners"

// Threads checks a Threads field: 0 (GOMAXPROCS) or 1..MaxThreads.
func (c *Check) Threads(t learners.Threads) {
	c.Count("Threads", int(t), learners.MaxThreads, "GOMAXPROCS")
}
