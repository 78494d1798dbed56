//go:build (!amd64 && !arm64) || !gc || purego || noasm

package asm

// No assembly in this build: Standardize is its pure-Go twin.
func standardize(z, x, mean, scale []float64) { standardizeRef(z, x, mean, scale) }
