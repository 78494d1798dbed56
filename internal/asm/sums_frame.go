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
	kSincosStats
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

// sumsFrame wraps the frame. The exported functions fill it in a local
// variable (so nothing escapes and calls allocate nothing); the twin reads the
// same pointers back as slices (see view).
type sumsFrame struct {
	a sumsArgs
}

func ptr(s []float64) *float64 { return unsafe.SliceData(s) }

// ptr32 is the frame pointer of a float32 matrix: the frame's slots are
// typed *float64, and only the Panels32 bodies dereference it (the Go side
// widens such panels before any other body sees them).
func ptr32(s []float32) *float64 { return (*float64)(unsafe.Pointer(unsafe.SliceData(s))) }

// offset is p advanced by n elements (nil stays nil: its stream is unused).
func offset(p *float64, n int) *float64 {
	if p == nil {
		return nil
	}
	return (*float64)(unsafe.Add(unsafe.Pointer(p), 8*n))
}

func lanePtr(s [][8]float64) *float64 {
	if len(s) == 0 {
		return nil
	}
	return &s[0][0]
}

// words is the frame as the assembly stubs declare it.
func (f *sumsFrame) words() *[21]uint64 { return (*[21]uint64)(unsafe.Pointer(&f.a)) }

// sumsView is the frame as slices, for the twin.
type sumsView struct {
	in   [4][]float64
	out  [2][]float64
	mat  [2][]float64
	vec  [2][]float64
	acc  [][8]float64
	accm [2][][8]float64
}

// view rebuilds the slices of a frame covering n elements (accs lane
// accumulators).
func (f *sumsFrame) view(n, accs int) sumsView {
	a := &f.a
	sl := func(p *float64, l int) []float64 {
		if p == nil {
			return nil
		}
		return unsafe.Slice(p, l)
	}
	lanes := func(p *float64, l int) [][8]float64 {
		if p == nil {
			return nil
		}
		return unsafe.Slice((*[8]float64)(unsafe.Pointer(p)), l)
	}
	matLen := 0
	if a.d > 0 && n > 0 {
		matLen = (a.d-1)*a.ld + n
	}
	v := sumsView{acc: lanes(a.acc, accs)}
	for s := range a.in {
		v.in[s] = sl(a.in[s], n)
	}
	for s := range a.out {
		v.out[s] = sl(a.out[s], n)
	}
	for m := range a.mat {
		v.mat[m] = sl(a.mat[m], matLen)
		v.vec[m] = sl(a.vec[m], a.d)
		v.accm[m] = lanes(a.accm[m], a.d)
	}
	return v
}
