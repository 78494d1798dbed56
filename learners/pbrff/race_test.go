//go:build race

package pbrff

const raceEnabled = true
