package exploss

import (
	"fmt"
	"math"
	"sort"

	"github.com/rfkit/rfkit/internal/asm"
)

// GatherBlocks returns the samples of x in the blocks of BlockLen samples
// that start at starts (each a multiple of BlockLen, the block within
// x.N), in that order, as a Data of len(starts)·BlockLen samples: sample
// j·BlockLen + i is sample starts[j] + i of x, the same bits, in x's
// layout (so every sweep over it takes the path a sweep over x takes). It
// fills dst and returns it when dst has that shape and layout, else a new
// Data, with x's thread limit. When v is not nil it also gathers the same
// blocks of v into vOut and returns their Σ|vOut[i]| (GatherVector), else
// 0. A block is a contiguous copy in either layout: gathering rows one by
// one reads a cache line of every input per row, about all of X at a
// sampling rate of 1/5.
func (x *Data) GatherBlocks(dst *Data, starts []int, v, vOut []float64) (*Data, float64, error) {
	if err := x.checkStarts(starts, false); err != nil {
		return nil, 0, err
	}
	if v != nil {
		if err := x.checkVector(starts, v, vOut); err != nil {
			return nil, 0, err
		}
	}
	dst = x.gatherDst(dst, len(starts))
	const bl = BlockLen
	// chunk c of dst is its blocks c·ChunkLen/bl, …: the copies split over
	// the sweep's goroutines (at n = 10⁶, d = 20 the 4 MB of a round's
	// 50 048 rows, read from 80 MB of X, were the largest serial step left
	// in a two-core round)
	var part []float64
	if v != nil {
		part = make([]float64, numChunks(dst.N))
	}
	forChunks(x.threads, dst.N, func(c, lo, hi int) {
		for j := lo / bl; j < hi/bl; j++ {
			x.copyBlock(dst, j, starts[j])
		}
		if part != nil {
			part[c] = gatherChunk(starts, v, vOut, lo, hi)
		}
	})
	return dst, sumParts(part), nil
}

// GatherVector gathers the blocks of v (len x.N) that start at starts into
// vOut (len(starts)·BlockLen), as GatherBlocks does for the samples, and
// returns Σ|vOut[i]|, summed as every sum here: lane i mod 8 of each chunk,
// asm.SumLanes, chunks in index order. It runs on up to x.Threads()
// goroutines.
//
// The sum rides on the copy because GBRFF2's subsample needs it each round
// (the mean boosting weight of its rows): summed afterwards in one serial
// loop it was a chain of 2·10⁴ dependent additions, about 25 µs of a round
// that takes about 0.5 ms on two cores at n = 10⁵.
func (x *Data) GatherVector(starts []int, v, vOut []float64) (float64, error) {
	if err := x.checkStarts(starts, false); err != nil {
		return 0, err
	}
	if err := x.checkVector(starts, v, vOut); err != nil {
		return 0, err
	}
	m := len(starts) * BlockLen
	part := make([]float64, numChunks(m))
	forChunks(x.threads, m, func(c, lo, hi int) {
		part[c] = gatherChunk(starts, v, vOut, lo, hi)
	})
	return sumParts(part), nil
}

// SincosCorrelation is x.Sincos(s, c, omega), then
// x.WeightedCorrelation(h, yt, c, s, {cb}, {sb}) (h = cos(ω·x − b) for
// cb = cos b, sb = sin b; it returns Σ yt·h), and, when starts is not
// empty, x.GatherBlocks(dst, starts, nil, nil) (starts strictly
// increasing; the returned Data, else nil), in one sweep with the bits of
// those calls: each chunk computes its correlation right after its sines
// and cosines, while they are in cache, and copies the blocks that start
// in it right after the sines and cosines of their piece, while their
// inputs are in cache. GBRFF2's subsample takes the next round's rows this
// way during the sweep of h over every row, which reads all of X anyway (a
// gather of its own read the blocks from memory again: at n = 10⁵, d = 20
// on an AVX2 machine with the column-major layout, 1.1 ms of a 5 ms
// round), and a round on a subsample sweeps every row twice (this, then
// the weight update) instead of three times (at n = 10⁶ the correlation's
// own sweep read 24 MB of s, c and ỹ back from memory each round, 8 % of a
// fit on one core).
func (x *Data) SincosCorrelation(h, s, c, yt, omega []float64, cb, sb float64, dst *Data, starts []int) (*Data, float64, error) {
	if len(h) != x.N || len(yt) != x.N {
		return nil, 0, fmt.Errorf("%w: SincosCorrelation with h %d and yt %d for %d samples", ErrShape, len(h), len(yt), x.N)
	}
	if len(starts) > 0 {
		if err := x.checkStarts(starts, true); err != nil {
			return nil, 0, err
		}
	} else {
		dst = nil
	}
	part := make([]float64, numChunks(x.N))
	u, v := []float64{cb}, []float64{sb}
	dst, err := x.sincosGather(s, c, omega, dst, starts, func(ci, lo, hi int) {
		var acc [8]float64
		asm.DotStats(h[lo:hi], yt[lo:hi], c[lo:], u, s[lo:], v, x.N, &acc)
		part[ci] = asm.SumLanes(&acc)
	})
	if err != nil {
		return nil, 0, err
	}
	return dst, sumParts(part), nil
}

// sincosGather is x.Sincos(s, c, omega) and, for starts (checked; empty:
// no gather, and a nil Data), x.GatherBlocks(dst, starts, nil, nil) in one
// sweep, then, when not nil, after(c, lo, hi) on each chunk once its sines
// and cosines are written.
func (x *Data) sincosGather(s, c, omega []float64, dst *Data, starts []int, after func(c, lo, hi int)) (*Data, error) {
	if len(s) != x.N || len(c) != x.N || len(omega) != x.D {
		return nil, fmt.Errorf("%w: Sincos with %d, %d outputs and %d weights for %d×%d data", ErrShape, len(s), len(c), len(omega), x.N, x.D)
	}
	if len(starts) > 0 {
		dst = x.gatherDst(dst, len(starts))
	}
	forChunks(x.threads, x.N, func(ci, lo, hi int) {
		// piece by piece (the outputs are per sample: the same bits as one
		// call per chunk), so that a block is copied while its inputs are
		// in L1 or L2: a column-major chunk at d = 20 is 640 KB of float64
		for l := lo; l < hi; l += sincosManyBlock {
			h := min(l+sincosManyBlock, hi)
			x.sincosChunk(s, c, omega, l, h)
			for j := sort.SearchInts(starts, l); j < len(starts) && starts[j] < h; j++ {
				x.copyBlock(dst, j, starts[j])
			}
		}
		if after != nil {
			after(ci, lo, hi)
		}
	})
	return dst, nil
}

// checkStarts checks that every block start is a multiple of BlockLen with
// the block within x.N (and, with increasing, that they increase strictly).
func (x *Data) checkStarts(starts []int, increasing bool) error {
	if len(starts) == 0 {
		return fmt.Errorf("%w: no blocks to gather", ErrShape)
	}
	for j, s := range starts {
		if s < 0 || s%BlockLen != 0 || s > x.N-BlockLen {
			return fmt.Errorf("%w: block at sample %d of %d (blocks of %d)", ErrShape, s, x.N, BlockLen)
		}
		if increasing && j > 0 && s <= starts[j-1] {
			return fmt.Errorf("%w: block starts %d then %d, want increasing", ErrShape, starts[j-1], s)
		}
	}
	return nil
}

func (x *Data) checkVector(starts []int, v, vOut []float64) error {
	if len(v) != x.N || len(vOut) != len(starts)*BlockLen {
		return fmt.Errorf("%w: gathering %d blocks of a vector of %d samples into %d", ErrShape, len(starts), len(v), len(vOut))
	}
	return nil
}

// gatherDst returns dst when it holds mb blocks of x's shape and layout,
// else a new Data of that shape; either way with x's thread limit.
func (x *Data) gatherDst(dst *Data, mb int) *Data {
	d, m := x.D, mb*BlockLen
	if dst == nil || dst.N != m || dst.D != d || dst.panel != x.panel || (dst.x32 == nil) != (x.x32 == nil) {
		dst = &Data{N: m, D: d, panel: x.panel}
		if x.x32 != nil {
			dst.x32 = make([]float32, m*d)
		} else {
			dst.xb = make([]float64, m*d)
		}
	}
	dst.threads = x.threads
	return dst
}

// copyBlock copies the block of x at sample s to block j of dst: one
// contiguous copy in the panel layouts, one per input column-major.
func (x *Data) copyBlock(dst *Data, j, s int) {
	const bl = BlockLen
	d, m := x.D, dst.N
	switch {
	case x.panel && x.x32 != nil:
		copy(dst.x32[j*bl*d:(j+1)*bl*d], x.x32[s*d:(s+bl)*d])
	case x.panel:
		copy(dst.xb[j*bl*d:(j+1)*bl*d], x.xb[s*d:(s+bl)*d])
	case x.x32 != nil:
		for k := 0; k < d; k++ {
			copy(dst.x32[k*m+j*bl:k*m+(j+1)*bl], x.x32[k*x.N+s:k*x.N+s+bl])
		}
	default:
		for k := 0; k < d; k++ {
			copy(dst.xb[k*m+j*bl:k*m+(j+1)*bl], x.xb[k*x.N+s:k*x.N+s+bl])
		}
	}
}

// gatherChunk copies the blocks of v for samples lo ≤ i < hi of the
// gathered vector vOut and returns their Σ|vOut[i]| in the package's
// order (lane i mod 8, asm.SumLanes).
func gatherChunk(starts []int, v, vOut []float64, lo, hi int) float64 {
	const bl = BlockLen
	var acc [8]float64
	for j := lo / bl; j < hi/bl; j++ {
		out := vOut[j*bl : (j+1)*bl]
		copy(out, v[starts[j]:starts[j]+bl])
		// a block starts at a multiple of 8: sample i feeds lane i mod 8
		for i := 0; i < bl; i += 8 {
			for l := range acc {
				acc[l] += math.Abs(out[i+l])
			}
		}
	}
	return asm.SumLanes(&acc)
}

// sumParts adds the chunks' sums in index order.
func sumParts(part []float64) float64 {
	var sum float64
	for _, p := range part {
		sum += p
	}
	return sum
}
