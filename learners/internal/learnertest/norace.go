//go:build !race

package learnertest

const raceEnabled = false
