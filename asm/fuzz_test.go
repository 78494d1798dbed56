package asm

import (
	"encoding/binary"
	"github.com/rfkit/rfkit/internal/scalar"
	"math"
	"testing"
)

// FuzzKernels feeds arbitrary bit patterns to every kernel on every path and
// compares each lane with the scalar twin.
func FuzzKernels(f *testing.F) {
	seed := make([]byte, 0, 8*len(specials))
	for _, v := range specials {
		seed = binary.LittleEndian.AppendUint64(seed, math.Float64bits(v))
	}
	f.Add(seed, 0.5)
	f.Add([]byte{1, 2, 3}, 0.0)
	f.Fuzz(func(t *testing.T, data []byte, b float64) {
		x := make([]float64, len(data)/8)
		for i := range x {
			x[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
		}
		d1, d2 := make([]float64, len(x)), make([]float64, len(x))
		for _, p := range Paths() {
			restore, err := SetPath(p)
			if err != nil {
				t.Fatal(err)
			}
			Sincos(d1, d2, x)
			for i, v := range x {
				if s, c := scalar.Sincos(v); !sameBits(d1[i], s) || !sameBits(d2[i], c) {
					t.Fatalf("%s: sincos(%v) = %v, %v; twin %v, %v", p, v, d1[i], d2[i], s, c)
				}
			}
			CosShift(d1, x, b)
			for i, v := range x {
				if w := scalar.Cos(v - b); !sameBits(d1[i], w) {
					t.Fatalf("%s: cos(%v − %v) = %v; twin %v", p, v, b, d1[i], w)
				}
			}
			Exp(d1, x)
			for i, v := range x {
				if w := scalar.Exp(v); !sameBits(d1[i], w) {
					t.Fatalf("%s: exp(%v) = %v; twin %v", p, v, d1[i], w)
				}
			}
			restore()
		}
	})
}
