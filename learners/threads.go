package learners

// Threads is the goroutine limit of a batch learner's Fit, the Config field
// Threads every batch learner has: 0 (the default) means GOMAXPROCS, n ≥ 1
// at most min(n, GOMAXPROCS) goroutines, so a service that retrains in the
// background can leave cores to the rest of its work. It is a property of
// the run, not of the model: a fit gives the same model bytes for any
// value (each learner splits its sums into fixed blocks added in a fixed
// order), and the model file does not store it (the field is tagged
// json:"-"). A learner whose Fit runs on one goroutine accepts it and says
// so in its Config's documentation; the online learners (fogd, nogd, rrf),
// one pass over the rows in order, have no such field.
type Threads int
