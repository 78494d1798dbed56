//go:build race

package srff_test

const raceEnabled = true
