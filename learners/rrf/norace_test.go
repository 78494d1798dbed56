//go:build !race

package rrf_test

const raceEnabled = false
