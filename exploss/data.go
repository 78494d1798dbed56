package exploss

import (
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/asm"
)

// ErrShape reports inconsistent lengths or dimensions.
var ErrShape = errors.New("exploss: shape mismatch")

// BlockLen is the number of samples per block (panel) of a Data: each
// block of X is stored column-major on its own (input k of sample i at
// blk[k·BlockLen + i − start]), BlockLen·d contiguous values. 64 samples are
// one iteration of the AVX-512 sweeps (eight groups of eight), which read a
// block from its first byte to its last: an evaluation reads X as a single
// forward stream, which the hardware prefetchers follow, instead of d
// column streams n values apart (or d short streams per block, as blocks of
// 512 samples gave: measured slower at n = 10⁵, BenchmarkFreqStepLayout).
// ChunkLen is a multiple of it, so the blocks do not change the summation
// order (which is fixed by ChunkLen and the lanes alone).
const BlockLen = 64

// blockLd is the row stride inside a block.
const blockLd = BlockLen

// Data is a copy of an n×d sample matrix in the blocked layout the sweeps
// read (see BlockLen). Use At to read a value back.
type Data struct {
	N, D    int
	xb      []float64 // numBlocks(N) blocks of D rows of blockLd values
	threads int       // 0: GOMAXPROCS (see SetThreads)
}

func numBlocks(n int) int { return (n + BlockLen - 1) / BlockLen }

// block returns the block holding samples [lo, lo+BlockLen): lo must be a
// multiple of BlockLen.
func (x *Data) block(lo int) []float64 {
	sz := x.D * blockLd
	b := lo / BlockLen
	return x.xb[b*sz : (b+1)*sz]
}

// At returns input k of sample i.
func (x *Data) At(i, k int) float64 {
	return x.block(i - i%BlockLen)[k*blockLd+i%BlockLen]
}

// NewData copies the row-major matrix X (n rows of d values, row stride
// stride) into the blocked layout. It rejects NaN and ±Inf, naming the
// sample and input.
func NewData(X []float64, n, d, stride int) (*Data, error) {
	if n <= 0 || d <= 0 || stride < d || len(X) < (n-1)*stride+d {
		return nil, fmt.Errorf("%w: data %d×%d with stride %d in %d values", ErrShape, n, d, stride, len(X))
	}
	x := &Data{N: n, D: d, xb: make([]float64, numBlocks(n)*d*blockLd)}
	for i := 0; i < n; i++ {
		row := X[i*stride : i*stride+d]
		blk := x.block(i - i%BlockLen)
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("exploss: sample %d, input %d is %v", i, k, v)
			}
			blk[k*blockLd+i%BlockLen] = v
		}
	}
	return x, nil
}

// SetThreads limits every sweep over x (Sincos, FreqStep, Landmark, and the
// Data methods Weights and WeightedCorrelation) to n goroutines; n ≤ 0
// means GOMAXPROCS, the default. The results do not depend on it. Not safe
// to call while a sweep over x runs.
func (x *Data) SetThreads(n int) { x.threads = max(n, 0) }

// Threads returns the limit set by SetThreads (0: GOMAXPROCS).
func (x *Data) Threads() int { return x.threads }

// Sincos sets s[i] = sin(p_i) and c[i] = cos(p_i) for p_i = Σ_k ω[k]·x_ik
// (one FMA per term, in k order).
func (x *Data) Sincos(s, c, omega []float64) error {
	if len(s) != x.N || len(c) != x.N || len(omega) != x.D {
		return fmt.Errorf("%w: Sincos with %d, %d outputs and %d weights for %d×%d data", ErrShape, len(s), len(c), len(omega), x.N, x.D)
	}
	forChunks(x.threads, x.N, func(_, lo, hi int) {
		for b := lo; b < hi; b += BlockLen {
			e := min(b+BlockLen, hi)
			asm.SincosDot(s[b:e], c[b:e], x.block(b), blockLd, omega)
		}
	})
	return nil
}

func checkFiniteSlice(what string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("exploss: %s[%d] is %v", what, i, x)
		}
	}
	return nil
}
