//go:build !race

package mfga_test

const raceEnabled = false
