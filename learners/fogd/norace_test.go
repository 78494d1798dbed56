//go:build !race

package fogd_test

const raceEnabled = false
