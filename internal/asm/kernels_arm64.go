//go:build arm64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// compiledPaths lists the bodies in trig_arm64.s and exp_arm64.s.
var compiledPaths = []cpu.Path{cpu.NEON}

func simdWidth() int { return 2 }

// trigAsm runs the NEON body of op (see kernels_simd.go).
func trigAsm(op trigOp, d1, d2, x []float64, b float64) int {
	switch op {
	case opCos:
		return cosNEON(d1, x)
	case opSin:
		return sinNEON(d1, x)
	case opSincos:
		return sincosNEON(d1, d2, x)
	default:
		return cosShiftNEON(d1, x, b)
	}
}

func expAsm(dst, x []float64) int { return expNEON(dst, x) }

// cosAffineAsm runs the NEON body of the affine map (featmap_arm64.s); the
// driver's twin finishes the columns it leaves.
func cosAffineAsm(dst, x, w, b []float64, ldw int, scale float64) int {
	return cosAffineNEON(dst, x, w, b, ldw, scale)
}

// sumsAsm runs the NEON body of reduction k (sums_arm64.s) from f.a.i.
func sumsAsm(k sumsKernel, f *sumsFrame) int {
	w := f.words()
	switch k {
	case kWeights:
		return weightsNEON(w)
	case kPhase:
		return phaseNEON(w)
	case kSincosDot:
		return sincosDotNEON(w)
	case kDotStats:
		return dotStatsNEON(w)
	case kFreqStep:
		return freqStepNEON(w)
	case kLandmark:
		return landmarkNEON(w)
	case kSincosStats:
		return sincosStatsNEON(w)
	default:
		return cosSumNEON(w)
	}
}

// sumsPanelsAsm: no panel variants in this build (see kernels_amd64.go).
func sumsPanelsAsm(sumsKernel, *sumsFrame, bool) (int, bool) { return 0, false }

// hasColumns32 and sumsColumns32Asm: no float32 column bodies in this build
// (see kernels_amd64.go).
func hasColumns32() bool                                  { return false }
func sumsColumns32Asm(sumsKernel, *sumsFrame) (int, bool) { return 0, false }
