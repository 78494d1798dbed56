//go:build (!amd64 && !arm64) || !gc || purego || noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// No assembly in this build: every kernel is its pure-Go twin.
var compiledPaths []cpu.Path

func cos(dst, x []float64)                 { trigGeneric(opCos, dst, nil, x, 0) }
func sin(dst, x []float64)                 { trigGeneric(opSin, dst, nil, x, 0) }
func sincos(s, c, x []float64)             { trigGeneric(opSincos, s, c, x, 0) }
func cosShift(dst, x []float64, b float64) { trigGeneric(opCosShift, dst, nil, x, b) }
func exp(dst, x []float64)                 { expGeneric(dst, x) }

func cosAffine(dst, x, w, b []float64, ldw int, scale float64) {
	cosAffineGeneric(dst, x, w, b, ldw, scale, 0, len(b))
}

func sumsRun(k sumsKernel, f *sumsFrame, n int) {
	f.a.n = n
	sumsRef(k, f, 0, n)
}

// sumsPanelsAsm: no panel variants in this build (see kernels_amd64.go).
func sumsPanelsAsm(sumsKernel, *sumsFrame, bool) (int, bool) { return 0, false }

// hasColumns32 and sumsColumns32Asm: no float32 column bodies in this build
// (see kernels_amd64.go).
func hasColumns32() bool                                  { return false }
func sumsColumns32Asm(sumsKernel, *sumsFrame) (int, bool) { return 0, false }
