package exploss

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// TestNewStandardizedData: the fused standardisation gives the bits of
// NewData over the standardised copy, in both panel kinds (float32From
// moved), on several chunks filled by 1, 2 and 4 goroutines, for rows in
// shuffled order from a strided matrix; and it reports a non-finite value
// by its sample and input, as NewData does, and rows out of range as shape
// errors.
func TestNewStandardizedData(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	N, d, stride := 3*ChunkLen+100, 5, 7
	X := make([]float64, N*stride)
	for i := range X {
		X[i] = r.NormFloat64()*4 + 2
	}
	rows := r.Perm(N)[:2*ChunkLen+333]
	mean, scale := make([]float64, d), make([]float64, d)
	for k := range mean {
		mean[k], scale[k] = r.NormFloat64(), 0.5+r.Float64()
	}
	z := make([]float64, len(rows)*d)
	for i, row := range rows {
		for k := 0; k < d; k++ {
			z[i*d+k] = (X[row*stride+k] - mean[k]) / scale[k]
		}
	}
	defer func(v int) { float32From = v }(float32From)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, from := range []int{0, 1 << 30} {
		float32From = from
		want, err := NewData(z, len(rows), d, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			got, err := NewStandardizedData(X, stride, rows, len(rows), d, mean, scale, 0)
			if err != nil {
				t.Fatal(err)
			}
			if (got.x32 == nil) != (want.x32 == nil) || got.N != want.N || got.D != want.D {
				t.Fatalf("float32From %d: layout differs", from)
			}
			for i := 0; i < got.N; i++ {
				for k := 0; k < d; k++ {
					if math.Float64bits(got.At(i, k)) != math.Float64bits(want.At(i, k)) {
						t.Fatalf("float32From %d, GOMAXPROCS %d: sample %d input %d is %v, want %v", from, procs, i, k, got.At(i, k), want.At(i, k))
					}
				}
			}
		}
	}
	bad := append([]float64(nil), X...)
	bad[rows[ChunkLen+7]*stride+3] = math.NaN()
	bad[rows[2*ChunkLen+1]*stride+1] = math.Inf(1)
	_, err := NewStandardizedData(bad, stride, rows, len(rows), d, mean, scale, 0)
	if err == nil || !strings.Contains(err.Error(), "sample 4103, input 3 is NaN") {
		t.Errorf("NaN input: error %v, want the first bad sample named", err)
	}
	for _, rs := range [][]int{{0, -1}, {N}, {}} {
		if _, err := NewStandardizedData(X, stride, rs, len(rs), d, mean, scale, 0); !errors.Is(err, ErrShape) {
			t.Errorf("rows %v: error %v, want ErrShape", rs, err)
		}
	}
	if _, err := NewStandardizedData(X, stride, rows, len(rows), d, mean[:2], scale, 0); !errors.Is(err, ErrShape) {
		t.Errorf("short mean: error %v, want ErrShape", err)
	}
	if _, err := NewStandardizedData(X, stride, rows, len(rows)-1, d, mean, scale, 0); !errors.Is(err, ErrShape) {
		t.Errorf("n not len(rows): error %v, want ErrShape", err)
	}
	if _, err := NewStandardizedData(X, stride, nil, N+1, d, mean, scale, 0); !errors.Is(err, ErrShape) {
		t.Errorf("rows nil, n beyond X: error %v, want ErrShape", err)
	}
}

// TestNewStandardizedDataAllRows: rows nil standardises the rows 0…n−1 of
// X, the bits of the explicit index list 0…n−1.
func TestNewStandardizedDataAllRows(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	N, d, stride := 2*ChunkLen+77, 4, 6
	X := make([]float64, N*stride)
	for i := range X {
		X[i] = r.NormFloat64()*3 - 1
	}
	mean, scale := []float64{0.5, -1, 2, 0}, []float64{3, 2, 0.7, 1}
	for _, n := range []int{N, N - 10} {
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		want, err := NewStandardizedData(X, stride, rows, n, d, mean, scale, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := NewStandardizedData(X, stride, nil, n, d, mean, scale, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got.N != n {
			t.Fatalf("rows nil: %d samples, want %d", got.N, n)
		}
		for i := 0; i < n; i++ {
			for k := 0; k < d; k++ {
				if math.Float64bits(got.At(i, k)) != math.Float64bits(want.At(i, k)) {
					t.Fatalf("n %d: sample %d input %d is %v, want %v", n, i, k, got.At(i, k), want.At(i, k))
				}
			}
		}
	}
}
