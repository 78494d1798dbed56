package dataset

import (
	"fmt"
	"math"
)

// Scaler standardises features: Transform maps x to (x - Mean[j]) / Scale[j]
// in column j. Fit it on training data only and apply it to every split.
type Scaler struct {
	Mean  []float64 // per-column mean
	Scale []float64 // per-column population standard deviation (1 for constant columns)
}

// FitScaler computes per-column means and population standard deviations
// (divisor n) of the row-major n×d matrix X. A constant column (all values
// equal) gets Scale 1, so it is centred to zero rather than divided by
// zero. It is an error if n or d is not positive, len(X) != n*d, or X holds
// a value that is not finite. No product is fused into an FMA, so the
// result has the same bits on every architecture.
func FitScaler(X []float64, n, d int) (*Scaler, error) {
	if n <= 0 || d <= 0 || n > math.MaxInt/d || len(X) != n*d {
		return nil, fmt.Errorf("dataset: FitScaler: len(X) = %d does not match n = %d, d = %d (both must be positive)", len(X), n, d)
	}
	s := &Scaler{Mean: make([]float64, d), Scale: make([]float64, d)}
	lo := make([]float64, d)
	hi := make([]float64, d)
	copy(lo, X[:d])
	copy(hi, X[:d])
	for i := 0; i < n; i++ {
		row := X[i*d : (i+1)*d]
		for j, v := range row {
			if !finite(v) {
				return nil, fmt.Errorf("dataset: FitScaler: X[%d, %d] = %v is not finite", i, j, v)
			}
			s.Mean[j] += v
			lo[j] = math.Min(lo[j], v)
			hi[j] = math.Max(hi[j], v)
		}
	}
	fn := float64(n)
	for j := range s.Mean {
		s.Mean[j] /= fn
	}
	// Corrected two-pass variance: sum((x-m)^2) - (sum(x-m))^2/n.
	ss := make([]float64, d)
	sc := make([]float64, d)
	for i := 0; i < n; i++ {
		row := X[i*d : (i+1)*d]
		for j, v := range row {
			dv := v - s.Mean[j]
			ss[j] += float64(dv * dv) // float64(·): no FMA, the same bits on every architecture
			sc[j] += dv
		}
	}
	for j := range s.Scale {
		v := (ss[j] - float64(sc[j]*sc[j])/fn) / fn
		sd := math.Sqrt(math.Max(v, 0))
		switch {
		case !finite(sd):
			return nil, fmt.Errorf("dataset: FitScaler: column %d: standard deviation overflows float64", j)
		case lo[j] == hi[j] || sd == 0:
			// Constant column (or a spread so small its variance
			// underflows): centre it, do not divide by ~0.
			sd = 1
		}
		s.Scale[j] = sd
	}
	return s, nil
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
