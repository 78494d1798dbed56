//go:build race

package rks_test

const raceEnabled = true
