//go:build race

package prff_test

const raceEnabled = true
