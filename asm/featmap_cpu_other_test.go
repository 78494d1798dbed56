//go:build !unix

package asm

// cpuSeconds is not measured here: cpu-ms/op reads 0.
func cpuSeconds() float64 { return 0 }
