package exploss

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
)

// TestGatherBlocks: the gathered Data holds the blocks' samples with the
// same bits, and the vector's blocks too (and Σ|vOut| in the package's
// summation order), in both panel kinds and the
// column-major layout's place, on one goroutine and on several (a gather
// of more than one chunk), a second gather into it reuses it, and a block
// out of place or a vector of the wrong length is a shape error.
func TestGatherBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	n, d := 3*ChunkLen+13, 3
	X, v := normals(r, n*d), normals(r, n)
	spread := make([]int, 2*ChunkLen/BlockLen+5) // three chunks, the last short
	for j := range spread {
		spread[j] = (r.IntN(n/BlockLen) * BlockLen)
	}
	defer func(v int) { float32From = v }(float32From)
	for _, from := range []int{0, 1 << 30} {
		float32From = from
		x, err := NewData(X, n, d, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 2, 3} {
			x.SetThreads(threads)
			var g *Data
			for _, starts := range [][]int{{3 * BlockLen, 0, 9 * BlockLen}, {BlockLen, 2 * BlockLen, 5 * BlockLen}, spread, spread} {
				prev := g
				vOut := make([]float64, len(starts)*BlockLen)
				var sum float64
				if g, sum, err = x.GatherBlocks(g, starts, v, vOut); err != nil {
					t.Fatal(err)
				}
				if want := absSumRef(vOut); math.Float64bits(sum) != math.Float64bits(want) {
					t.Errorf("float32From %d, %d threads: Σ|vOut| = %v, want %v", from, threads, sum, want)
				}
				if _, sum, _ := x.GatherBlocks(g, starts, nil, nil); sum != 0 {
					t.Errorf("no vector: Σ = %v, want 0", sum)
				}
				if prev != nil && prev.N == g.N && g != prev {
					t.Errorf("float32From %d: a gather of the same shape made a new Data", from)
				}
				if g.N != len(starts)*BlockLen || (g.x32 == nil) != (x.x32 == nil) || g.Threads() != threads {
					t.Fatalf("float32From %d: %d samples, layout or threads differ", from, g.N)
				}
				for j, s := range starts {
					for i := 0; i < BlockLen; i++ {
						if math.Float64bits(vOut[j*BlockLen+i]) != math.Float64bits(v[s+i]) {
							t.Fatalf("float32From %d, %d threads: block %d sample %d of the vector differs", from, threads, j, i)
						}
						for k := 0; k < d; k++ {
							if math.Float64bits(g.At(j*BlockLen+i, k)) != math.Float64bits(x.At(s+i, k)) {
								t.Fatalf("float32From %d, %d threads: block %d sample %d input %d differs", from, threads, j, i, k)
							}
						}
					}
				}
			}
		}
		if _, _, err := x.GatherBlocks(nil, []int{0}, v, make([]float64, 2*BlockLen)); !errors.Is(err, ErrShape) {
			t.Errorf("a vector out of shape: error %v, want ErrShape", err)
		}
		for _, starts := range [][]int{{1}, {n / BlockLen * BlockLen}, {-BlockLen}, {}} {
			if _, _, err := x.GatherBlocks(nil, starts, nil, nil); !errors.Is(err, ErrShape) {
				t.Errorf("starts %v: error %v, want ErrShape", starts, err)
			}
		}
	}
}

// absSumRef is Σ|v[i]| in the package's summation order, one sample at a
// time: lane i mod 8 of each chunk, asm.SumLanes, chunks in index order.
func absSumRef(v []float64) float64 {
	var sum float64
	for lo := 0; lo < len(v); lo += ChunkLen {
		var acc [8]float64
		for i := lo; i < min(lo+ChunkLen, len(v)); i++ {
			acc[(i-lo)%8] += math.Abs(v[i])
		}
		sum += asm.SumLanes(&acc)
	}
	return sum
}

// TestSincosGather: SincosCorrelation's sines, cosines and gather are the
// bits of Sincos and of GatherBlocks, and GatherVector gives those of
// GatherBlocks' vector and sum, in every layout, on one goroutine and on
// several, for blocks in several chunks of x; starts out of order are a
// shape error.
func TestSincosGather(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	n, d := 5*ChunkLen+77, 4
	X, v := normals(r, n*d), normals(r, n)
	omega := []float64{0.3, -1.1, 0.7, 2.5}
	starts := blockStarts(r, n, 3) // some in every chunk, some neighbours
	defer func(v int) { float32From = v }(float32From)
	for _, from := range []int{0, 1 << 30} {
		float32From = from
		x, err := NewData(X, n, d, d)
		if err != nil {
			t.Fatal(err)
		}
		// the sweep of h, its correlation with v aside
		sincosGather := func(s, c []float64, dst *Data, starts []int) (*Data, error) {
			g, _, err := x.SincosCorrelation(make([]float64, n), s, c, v, omega, 1, 0, dst, starts)
			return g, err
		}
		for _, threads := range []int{1, 2, 3} {
			x.SetThreads(threads)
			s0, c0 := make([]float64, n), make([]float64, n)
			if err := x.Sincos(s0, c0, omega); err != nil {
				t.Fatal(err)
			}
			vOut0 := make([]float64, len(starts)*BlockLen)
			g0, sum0, err := x.GatherBlocks(nil, starts, v, vOut0)
			if err != nil {
				t.Fatal(err)
			}
			s1, c1 := make([]float64, n), make([]float64, n)
			g1, err := sincosGather(s1, c1, nil, starts)
			if err != nil {
				t.Fatal(err)
			}
			if g2, err := sincosGather(s1, c1, g1, starts); err != nil || g2 != g1 {
				t.Fatalf("a second gather into the same shape: %v, same Data %v", err, g2 == g1)
			}
			for i := range s0 {
				if math.Float64bits(s0[i]) != math.Float64bits(s1[i]) || math.Float64bits(c0[i]) != math.Float64bits(c1[i]) {
					t.Fatalf("float32From %d, %d threads: sample %d: sincos differs", from, threads, i)
				}
			}
			for i := 0; i < g0.N; i++ {
				for k := 0; k < d; k++ {
					if math.Float64bits(g0.At(i, k)) != math.Float64bits(g1.At(i, k)) {
						t.Fatalf("float32From %d, %d threads: gathered sample %d input %d differs", from, threads, i, k)
					}
				}
			}
			vOut1 := make([]float64, len(vOut0))
			sum1, err := x.GatherVector(starts, v, vOut1)
			if err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(sum0) != math.Float64bits(sum1) {
				t.Errorf("%d threads: GatherVector sum %v, GatherBlocks %v", threads, sum1, sum0)
			}
			for i := range vOut0 {
				if math.Float64bits(vOut0[i]) != math.Float64bits(vOut1[i]) {
					t.Fatalf("%d threads: GatherVector sample %d differs", threads, i)
				}
			}
		}
		s, c := make([]float64, n), make([]float64, n)
		for _, bad := range [][]int{{BlockLen, 0}, {0, 0}, {1}} {
			if _, err := sincosGather(s, c, nil, bad); !errors.Is(err, ErrShape) {
				t.Errorf("starts %v: error %v, want ErrShape", bad, err)
			}
		}
		if _, err := x.GatherVector([]int{0}, v[:n-1], make([]float64, BlockLen)); !errors.Is(err, ErrShape) {
			t.Errorf("GatherVector of a short vector: error %v, want ErrShape", err)
		}
	}
}

// blockStarts returns increasing starts of whole blocks of n samples, each
// block drawn with probability 1/oneIn.
func blockStarts(r *rand.Rand, n, oneIn int) []int {
	var starts []int
	for s := 0; s <= n-BlockLen; s += BlockLen {
		if r.IntN(oneIn) == 0 {
			starts = append(starts, s)
		}
	}
	return starts
}

// normals returns n draws of r.NormFloat64.
func normals(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

// TestSincosCorrelation: SincosCorrelation gives the bits of Sincos, then
// WeightedCorrelation at cos b, sin b, then (with starts) GatherBlocks'
// copy, in every layout, on one goroutine and on several; without starts
// it gathers nothing; bad shapes are errors.
func TestSincosCorrelation(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	n, d := 5*ChunkLen+77, 4
	X, yt := normals(r, n*d), normals(r, n)
	omega := []float64{0.3, -1.1, 0.7, 2.5}
	cb, sb := math.Cos(0.4), math.Sin(0.4)
	starts := blockStarts(r, n, 4)
	defer func(v int) { float32From = v }(float32From)
	for _, from := range []int{0, 1 << 30} {
		float32From = from
		x, err := NewData(X, n, d, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 2, 3} {
			x.SetThreads(threads)
			s0, c0, h0 := make([]float64, n), make([]float64, n), make([]float64, n)
			if err := x.Sincos(s0, c0, omega); err != nil {
				t.Fatal(err)
			}
			g0, _, err := x.GatherBlocks(nil, starts, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			corr0, err := x.WeightedCorrelation(h0, yt, c0, s0, []float64{cb}, []float64{sb})
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range [][]int{starts, nil} {
				s1, c1, h1 := make([]float64, n), make([]float64, n), make([]float64, n)
				g1, corr1, err := x.SincosCorrelation(h1, s1, c1, yt, omega, cb, sb, nil, st)
				if err != nil {
					t.Fatal(err)
				}
				if math.Float64bits(corr0) != math.Float64bits(corr1) {
					t.Errorf("float32From %d, %d threads: correlation %v, want %v", from, threads, corr1, corr0)
				}
				for i := range s0 {
					if math.Float64bits(s0[i]) != math.Float64bits(s1[i]) || math.Float64bits(c0[i]) != math.Float64bits(c1[i]) || math.Float64bits(h0[i]) != math.Float64bits(h1[i]) {
						t.Fatalf("float32From %d, %d threads: sample %d: sincos or h differs", from, threads, i)
					}
				}
				if st == nil {
					if g1 != nil {
						t.Errorf("no starts: gathered %d samples", g1.N)
					}
					continue
				}
				for i := 0; i < g0.N; i++ {
					for k := 0; k < d; k++ {
						if math.Float64bits(g0.At(i, k)) != math.Float64bits(g1.At(i, k)) {
							t.Fatalf("float32From %d, %d threads: gathered sample %d input %d differs", from, threads, i, k)
						}
					}
				}
			}
		}
		s, c, h := make([]float64, n), make([]float64, n), make([]float64, n)
		if _, _, err := x.SincosCorrelation(h, s, c, yt, omega, cb, sb, nil, []int{BlockLen, 0}); !errors.Is(err, ErrShape) {
			t.Errorf("starts out of order: error %v, want ErrShape", err)
		}
		if _, _, err := x.SincosCorrelation(h[:n-1], s, c, yt, omega, cb, sb, nil, nil); !errors.Is(err, ErrShape) {
			t.Errorf("short h: error %v, want ErrShape", err)
		}
		if _, _, err := x.SincosCorrelation(h, s, c, yt[:1], omega, cb, sb, nil, nil); !errors.Is(err, ErrShape) {
			t.Errorf("short yt: error %v, want ErrShape", err)
		}
	}
}
