package featmap

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
)

func randMatrix(r *rand.Rand, rows, cols, stride int) Matrix {
	m := Matrix{Rows: rows, Cols: cols, Stride: stride, Data: make([]float64, max(0, (rows-1)*stride+cols))}
	for i := range m.Data {
		m.Data[i] = r.NormFloat64()
	}
	return m
}

// kernelValue is the exact kernel the map approximates.
func kernelValue(k Kernel, gamma float64, x, y []float64) float64 {
	var s float64
	for i := range x {
		if k == Laplacian {
			s += math.Abs(x[i] - y[i])
		} else {
			s += (x[i] - y[i]) * (x[i] - y[i])
		}
	}
	return math.Exp(-gamma * s)
}

// TestRFFApproximatesKernel: z(x)·z(y) is an unbiased estimate of k(x, y)
// with standard deviation ≤ √(2/D) (each term is bounded by 2/D… in
// magnitude and there are D of them); with D = 20000 a deviation of 0.05
// is more than 3.5 sd, so a wrong spectral law or scale fails the test.
func TestRFFApproximatesKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const d, D = 5, 20000
	for _, c := range []RFFConfig{
		{Inputs: d, Features: D, Gamma: 0.3, Seed: 1},
		{Inputs: d, Features: D, Gamma: 0.3, Seed: 2, Pair: true},
		{Inputs: d, Features: D, Gamma: 0.3, Seed: 3, Orthogonal: true},
		{Inputs: d, Features: D, Gamma: 0.5, Seed: 4, Kernel: Laplacian},
	} {
		m, err := NewRFF(c)
		if err != nil {
			t.Fatal(err)
		}
		X := randMatrix(r, 6, d, d)
		for i := range X.Data {
			X.Data[i] *= 0.7
		}
		Z := Dense(6, m.Outputs(), make([]float64, 6*m.Outputs()))
		if err := m.Transform(Z, X); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				var dot float64
				for k, v := range Z.Row(i) {
					dot += v * Z.Row(j)[k]
				}
				want := kernelValue(c.Kernel, c.Gamma, X.Row(i), X.Row(j))
				if math.Abs(dot-want) > 0.05 {
					t.Errorf("%+v: z(x%d)·z(x%d) = %.4f, kernel %.4f", c, i, j, dot, want)
				}
			}
		}
	}
}

func TestOrthogonalBlocks(t *testing.T) {
	m, err := NewRFF(RFFConfig{Inputs: 6, Features: 12, Gamma: 1, Orthogonal: true, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := m.Weights()
	for blk := 0; blk < 2; blk++ {
		for a := 0; a < 6; a++ {
			for b := 0; b < a; b++ {
				var dot float64
				for k := 0; k < 6; k++ {
					dot += w[k*12+blk*6+a] * w[k*12+blk*6+b]
				}
				if math.Abs(dot) > 1e-9 {
					t.Fatalf("block %d: frequencies %d and %d not orthogonal (%g)", blk, a, b, dot)
				}
			}
		}
	}
}

// TestTransformEqualsRows: the parallel Transform, with strides, equals
// TransformRow (the one-row kernel) and the formula, bit for bit, for several
// GOMAXPROCS and on every SIMD path; d = 7 and d = 40 sit on both sides of
// the blocked kernel's threshold, and D = 37 leaves a partial panel.
func TestTransformEqualsRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, d := range []int{7, 40} {
		for _, pair := range []bool{false, true} {
			m, err := NewRFF(RFFConfig{Inputs: d, Features: 37, Gamma: 0.2, Pair: pair, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			X := randMatrix(r, 3000, d, d+2)
			var ref []float64
			for _, p := range asm.Paths() {
				for _, procs := range []int{1, 2, 7} {
					restore, _ := asm.SetPath(p)
					old := runtime.GOMAXPROCS(procs)
					Z := Matrix{Rows: 3000, Cols: m.Outputs(), Stride: m.Outputs() + 3, Data: make([]float64, 3000*(m.Outputs()+3))}
					if err := m.Transform(Z, X); err != nil {
						t.Fatal(err)
					}
					runtime.GOMAXPROCS(old)
					got := make([]float64, 0, 3000*m.Outputs())
					for i := 0; i < Z.Rows; i++ {
						got = append(got, Z.Row(i)...)
					}
					row := make([]float64, m.Outputs())
					for i := 0; i < Z.Rows; i += 7 {
						m.TransformRow(row, X.Row(i))
						for j := range row {
							if math.Float64bits(row[j]) != math.Float64bits(Z.Row(i)[j]) {
								t.Fatalf("d=%d pair=%v path=%s GOMAXPROCS=%d: [%d,%d] Transform %v, TransformRow %v",
									d, pair, p, procs, i, j, Z.Row(i)[j], row[j])
							}
						}
					}
					restore()
					if ref == nil {
						ref = got
						// spot-check the formula
						w, b := m.Weights()
						for i := 0; i < 3000; i += 97 {
							for j := 0; j < 37; j++ {
								s := b[j]
								for k := 0; k < d; k++ {
									s = math.FMA(X.Row(i)[k], w[k*37+j], s)
								}
								if want := m.Scale() * math.Cos(s); math.Abs(got[i*m.Outputs()+j]-want) > 1e-15 {
									t.Fatalf("row %d col %d: %v, formula %v", i, j, got[i*m.Outputs()+j], want)
								}
							}
						}
						continue
					}
					for k := range ref {
						if math.Float64bits(ref[k]) != math.Float64bits(got[k]) {
							t.Fatalf("d=%d pair=%v path=%s GOMAXPROCS=%d: element %d differs", d, pair, p, procs, k)
						}
					}
				}
			}
		}
	}
}

func TestRFFErrors(t *testing.T) {
	for _, c := range []RFFConfig{
		{Inputs: 0, Features: 3, Gamma: 1},
		{Inputs: 2, Features: -1, Gamma: 1},
		{Inputs: 2, Features: 3, Gamma: 0},
		{Inputs: 2, Features: 3, Gamma: math.NaN()},
		{Inputs: 2, Features: 3, Gamma: 1, Kernel: Laplacian, Orthogonal: true},
	} {
		if _, err := NewRFF(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	m, _ := NewRFF(RFFConfig{Inputs: 3, Features: 4, Gamma: 1})
	X := Dense(2, 3, make([]float64, 6))
	for _, bad := range []struct{ dst, X Matrix }{
		{Dense(2, 5, make([]float64, 10)), X},
		{Dense(3, 4, make([]float64, 12)), X},
		{Dense(2, 4, make([]float64, 8)), Dense(2, 2, make([]float64, 4))},
		{Dense(2, 4, make([]float64, 7)), X},
		{Matrix{Rows: 2, Cols: 4, Stride: 3, Data: make([]float64, 8)}, X},
	} {
		if err := m.Transform(bad.dst, bad.X); err == nil {
			t.Errorf("Transform accepted dst %d×%d/%d (len %d), X %d×%d", bad.dst.Rows, bad.dst.Cols, bad.dst.Stride, len(bad.dst.Data), bad.X.Rows, bad.X.Cols)
		} else if bad.X.Cols == 3 && bad.dst.Rows != 2 && !errors.Is(err, ErrShape) {
			t.Errorf("want ErrShape, got %v", err)
		}
	}
	if _, err := NewRFFFromWeights([]float64{1, math.Inf(1)}, []float64{0, 0}, 1, 2, false); err == nil {
		t.Error("infinite weight accepted")
	}
}

func TestTransformRowAllocs(t *testing.T) {
	m, _ := NewRFF(RFFConfig{Inputs: 20, Features: 100, Gamma: 0.05, Pair: true})
	x, z := make([]float64, 20), make([]float64, 200)
	if a := testing.AllocsPerRun(100, func() { m.TransformRow(z, x) }); a != 0 {
		t.Errorf("TransformRow allocates %v times", a)
	}
	X, Z := Dense(8, 20, make([]float64, 160)), Dense(8, 200, make([]float64, 1600))
	if a := testing.AllocsPerRun(100, func() { _ = m.Transform(Z, X) }); a != 0 {
		t.Errorf("small Transform allocates %v times", a)
	}
}
