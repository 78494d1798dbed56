package asm

import (
	"unsafe"
)

// sumsKernel names the reduction kernels (internal/gen/kernels/reduce.go).
type sumsKernel uint8

const (
	kWeights sumsKernel = iota
	kPhase
	kSincosDot
	kDotStats
	kFreqStep
	kLandmark
	kCosSum
)

// sumsArgs is the frame the reduction bodies read (its layout is fixed by
// the Frame* offsets in internal/gen/kernels/reduce.go; TestSumsFrameLayout
// checks it). Pointers may be nil where a length is zero.
type sumsArgs struct {
	in   [4]*float64
	out  [2]*float64
	mat  [2]*float64
	vec  [2]*float64
	acc  *float64
	accm [2]*float64
	d    int
	ld   int
	i    int
	n    int
	par  [4]float64
}

// sumsFrame is the argument frame plus the same data as slices for the twin.
type sumsFrame struct {
	a    sumsArgs
	in   [4][]float64
	out  [2][]float64
	mat  [2][]float64
	vec  [2][]float64
	acc  [][8]float64
	accm [2][][8]float64
}

func ptr(s []float64) *float64 { return unsafe.SliceData(s) }

// seal copies the slices' base pointers into the assembly frame.
func (f *sumsFrame) seal(n int) {
	for s := range f.in {
		f.a.in[s] = ptr(f.in[s])
	}
	for s := range f.out {
		f.a.out[s] = ptr(f.out[s])
	}
	for m := range f.mat {
		f.a.mat[m] = ptr(f.mat[m])
		f.a.vec[m] = ptr(f.vec[m])
		if f.accm[m] != nil {
			f.a.accm[m] = &f.accm[m][0][0]
		}
	}
	if len(f.acc) > 0 {
		f.a.acc = &f.acc[0][0]
	}
	f.a.n = n
}

// words is the frame as the assembly stubs declare it.
func (f *sumsFrame) words() *[21]uint64 { return (*[21]uint64)(unsafe.Pointer(&f.a)) }
