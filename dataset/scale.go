package dataset

import (
	"fmt"
)

// Scaler standardises features: Transform maps x to (x - Mean[j]) / Scale[j]
// in column j. learners.Standardize fits one (the statistics every rfkit
// learner stores); fit it on training data only and apply it to every
// split.
type Scaler struct {
	Mean  []float64 // per-column mean
	Scale []float64 // per-column population standard deviation (1 for constant columns)
}

// Transform writes the standardised rows of X to dst: dst[i*d+j] =
// (X[i*d+j] - Mean[j]) / Scale[j] with d = len(s.Mean). dst and X may be
// the same slice (in place). It panics if len(X) is not a multiple of d or
// len(dst) != len(X).
func (s *Scaler) Transform(dst, X []float64) {
	d := s.check(dst, X, "Transform")
	for i := 0; i < len(X); i += d {
		for j := 0; j < d; j++ {
			dst[i+j] = (X[i+j] - s.Mean[j]) / s.Scale[j]
		}
	}
}

// Inverse undoes Transform: dst[i*d+j] = X[i*d+j]*Scale[j] + Mean[j]. dst
// and X may be the same slice. It panics under the same conditions as
// Transform.
func (s *Scaler) Inverse(dst, X []float64) {
	d := s.check(dst, X, "Inverse")
	for i := 0; i < len(X); i += d {
		for j := 0; j < d; j++ {
			dst[i+j] = float64(X[i+j]*s.Scale[j]) + s.Mean[j]
		}
	}
}

func (s *Scaler) check(dst, X []float64, name string) int {
	d := len(s.Mean)
	if d == 0 || len(s.Scale) != d {
		panic(fmt.Sprintf("dataset: Scaler.%s: bad scaler (len(Mean) = %d, len(Scale) = %d)", name, d, len(s.Scale)))
	}
	if len(X)%d != 0 || len(dst) != len(X) {
		panic(fmt.Sprintf("dataset: Scaler.%s: len(X) = %d, len(dst) = %d, want equal multiples of d = %d", name, len(X), len(dst), d))
	}
	return d
}
