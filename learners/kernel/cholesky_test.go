package kernel

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// refCholesky is the textbook row-by-row Cholesky–Banachiewicz loop that
// cholesky must reproduce bit for bit (the factorisation of the models
// fitted before the blocked version).
func refCholesky(a []float64, m int) error {
	for i := 0; i < m; i++ {
		ri := a[i*m : i*m+i+1]
		for j := 0; j <= i; j++ {
			rj := a[j*m : j*m+j+1]
			s := ri[j]
			for k := 0; k < j; k++ {
				s -= float64(ri[k] * rj[k])
			}
			if j < i {
				ri[j] = s / rj[j]
				continue
			}
			if !(s > 0) {
				return errNotPD
			}
			ri[i] = math.Sqrt(s)
		}
	}
	return nil
}

// spd is a random Gaussian-kernel matrix of m points in 3 dimensions plus
// diag on the diagonal (lower triangle; the upper triangle is zero).
func spd(m int, diag float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, 3*m)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	a := make([]float64, m*m)
	for i := 0; i < m; i++ {
		for j := 0; j <= i; j++ {
			var q float64
			for k := 0; k < 3; k++ {
				t := x[3*i+k] - x[3*j+k]
				q += t * t
			}
			a[i*m+j] = math.Exp(-q / 2)
		}
		a[i*m+i] += diag
	}
	return a
}

// TestCholeskyMatchesReference: the blocked factor has the reference's
// bits in the lower triangle, at sizes around the block and chunk
// boundaries and at m > cholChunk (several k chunks, the parallel update),
// for the thread limits 0 (GOMAXPROCS, at least 4 here), 1 and 2.
func TestCholeskyMatchesReference(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0))))
	sizes := []int{1, 2, 3, 5, 63, 64, 65, 130, 259, 333}
	if !testing.Short() {
		sizes = append(sizes, 600, 600, 600)
	}
	for k, m := range sizes {
		threads := 0
		if m >= 333 { // the parallel update: every limit
			threads = k % 3
		}
		a := spd(m, 1e-3, uint64(m))
		b := append([]float64(nil), a...)
		if err := cholesky(context.Background(), a, m, threads); err != nil {
			t.Fatalf("m=%d: %v", m, err)
		}
		if err := refCholesky(b, m); err != nil {
			t.Fatalf("m=%d: reference: %v", m, err)
		}
		for i := 0; i < m; i++ {
			for j := 0; j <= i; j++ {
				if math.Float64bits(a[i*m+j]) != math.Float64bits(b[i*m+j]) {
					t.Fatalf("m=%d: L[%d][%d] = %v, reference %v", m, i, j, a[i*m+j], b[i*m+j])
				}
			}
		}
		// The strict upper triangle outside the diagonal blocks is untouched.
		for i := 0; i < m; i++ {
			for j := (i/cholBlock + 1) * cholBlock; j < m; j++ {
				if a[i*m+j] != 0 {
					t.Fatalf("m=%d: upper entry (%d, %d) written", m, i, j)
				}
			}
		}
	}
}

// TestCholeskyBadInput: a matrix that is not positive definite (a
// negative pivot late in the factorisation, past the first block) and a
// NaN entry are reported, not factored into NaN.
func TestCholeskyBadInput(t *testing.T) {
	const m = 150
	a := spd(m, 1e-3, 9)
	a[140*m+140] = -1
	if err := cholesky(context.Background(), a, m, 0); !errors.Is(err, errNotPD) {
		t.Errorf("negative pivot: err = %v", err)
	}
	a = spd(m, 1e-3, 9)
	a[100*m+7] = math.NaN()
	if err := cholesky(context.Background(), a, m, 0); !errors.Is(err, errNotPD) {
		t.Errorf("NaN entry: err = %v", err)
	}
}
