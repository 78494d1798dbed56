//go:build amd64 && gc && !purego && !noasm

package asm

import "github.com/rfkit/rfkit/internal/cpu"

// compiledPaths lists the bodies in trig_amd64.s and exp_amd64.s.
var compiledPaths = []cpu.Path{cpu.AVX2, cpu.AVX512}

func simdWidth() int {
	if path == cpu.AVX512 {
		return 8
	}
	return 4
}

// trigAsm runs the selected assembly body of op (see kernels_simd.go).
func trigAsm(op trigOp, d1, d2, x []float64, b float64) int {
	if path == cpu.AVX512 {
		switch op {
		case opCos:
			return cosAVX512(d1, x)
		case opSin:
			return sinAVX512(d1, x)
		case opSincos:
			return sincosAVX512(d1, d2, x)
		default:
			return cosShiftAVX512(d1, x, b)
		}
	}
	switch op {
	case opCos:
		return cosAVX2(d1, x)
	case opSin:
		return sinAVX2(d1, x)
	case opSincos:
		return sincosAVX2(d1, d2, x)
	default:
		return cosShiftAVX2(d1, x, b)
	}
}

func expAsm(dst, x []float64) int {
	if path == cpu.AVX512 {
		return expAVX512(dst, x)
	}
	return expAVX2(dst, x)
}

func cosAffineAsm(dst, x, w, b []float64, ldw int, scale float64) int {
	if path == cpu.AVX512 {
		return cosAffineAVX512(dst, x, w, b, ldw, scale)
	}
	return cosAffineAVX2(dst, x, w, b, ldw, scale)
}

// sumsAsm runs the selected body of reduction k (sums_amd64.s) from f.a.i.
func sumsAsm(k sumsKernel, f *sumsFrame) int {
	w := f.words()
	if path == cpu.AVX512 {
		switch k {
		case kWeights:
			return weightsAVX512(w)
		case kPhase:
			return phaseAVX512(w)
		case kSincosDot:
			return sincosDotAVX512(w)
		case kDotStats:
			return dotStatsAVX512(w)
		case kFreqStep:
			return freqStepAVX512(w)
		case kLandmark:
			return landmarkAVX512(w)
		case kSincosStats:
			return sincosStatsAVX512(w)
		default:
			return cosSumAVX512(w)
		}
	}
	switch k {
	case kWeights:
		return weightsAVX2(w)
	case kPhase:
		return phaseAVX2(w)
	case kSincosDot:
		return sincosDotAVX2(w)
	case kDotStats:
		return dotStatsAVX2(w)
	case kFreqStep:
		return freqStepAVX2(w)
	case kLandmark:
		return landmarkAVX2(w)
	case kSincosStats:
		return sincosStatsAVX2(w)
	default:
		return cosSumAVX2(w)
	}
}

// sumsPanelsAsm runs the panel variant of reduction k (sums_amd64.s) from
// f.a.i, if the selected path has one: it returns where it stopped and true,
// or false when the caller must go panel by panel. f32: the matrix is
// float32 (the Panels32 variants).
func sumsPanelsAsm(k sumsKernel, f *sumsFrame, f32 bool) (int, bool) {
	if path != cpu.AVX512 {
		return 0, false
	}
	if f32 {
		switch k {
		case kFreqStep:
			return freqStepPanels32AVX512(f.words()), true
		case kSincosDot:
			return sincosDotPanels32AVX512(f.words()), true
		}
		return 0, false
	}
	switch k {
	case kFreqStep:
		return freqStepPanelsAVX512(f.words()), true
	case kSincosDot:
		return sincosDotPanelsAVX512(f.words()), true
	}
	return 0, false
}

func hasColumns32() bool { return path == cpu.AVX2 }

// sumsColumns32Asm runs the float32 column-major body of reduction k
// (sums_amd64.s) from f.a.i, if the selected path has one: it returns where
// it stopped and true, or false when the caller must widen on the Go side.
func sumsColumns32Asm(k sumsKernel, f *sumsFrame) (int, bool) {
	if path != cpu.AVX2 {
		return 0, false
	}
	switch k {
	case kFreqStep:
		return freqStep32AVX2(f.words()), true
	case kSincosDot:
		return sincosDot32AVX2(f.words()), true
	}
	return 0, false
}
