//go:build !race

package prff_test

const raceEnabled = false
