//go:build race

package rfselect_test

const raceEnabled = true
