//go:build race

package learnertest

// raceEnabled: the race detector makes sync.Pool drop items on purpose, so
// the allocation checks skip.
const raceEnabled = true
