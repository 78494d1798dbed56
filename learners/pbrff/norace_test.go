//go:build !race

package pbrff

const raceEnabled = false
