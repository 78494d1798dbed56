//go:build (!amd64 && !arm64) || !gc || purego || noasm

package asm

// No assembly in this build: the dot family is its pure-Go twin, and the
// prefetch hint does nothing.

func dotF32(w []float64, x []float32) float64     { return dotRef(w, x) }
func dotF64(w, x []float64) float64               { return dotRef(w, x) }
func axpyF32(a float64, x []float32, y []float64) { axpyRef(a, x, y) }
func axpyF64(a float64, x, y []float64)           { axpyRef(a, x, y) }
func prefetch([]float32)                          {}
