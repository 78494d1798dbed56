package exploss

import (
	"errors"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/asm"
)

// ErrShape reports inconsistent lengths or dimensions.
var ErrShape = errors.New("exploss: shape mismatch")

// BlockLen is the number of samples per panel of a Data on AVX-512 (see
// asm.PanelLen): each panel of X is stored column-major on its own (input k
// of sample i at pan[k·BlockLen + i − start]), BlockLen·d contiguous values,
// which the blocked AVX-512 sweeps read from the first byte to the last: an
// evaluation reads X as one forward stream, which the hardware prefetchers
// follow, instead of d column streams n values apart (or d short streams
// per block, as blocks of 512 samples gave: measured slower at n = 10⁵,
// BenchmarkFreqStepLayout). ChunkLen is a multiple of it, so the panels do
// not change the summation order (which ChunkLen and the lanes fix alone).
const BlockLen = 64

// a chunk is whole blocks (the gathers split their copies by chunk), and a
// block whole groups of the eight lanes (GatherVector sums by block)
var _ = [1]struct{}{}[ChunkLen%BlockLen+BlockLen%8]

// Data is the training copy of an n×d sample matrix: every value rounded
// to float32 (the sweeps widen each back to float64 exactly and compute in
// float64, so a sweep sees x rounded to float32 — relative error at most
// 2⁻²⁴ — and every path and layout sees the same values), in the layout
// the sweeps of the kernel path selected at NewData read fastest. On
// AVX-512: panels of BlockLen samples, stored as float32 once X is too large
// for the caches (n·d ≥ float32From), which halves the bytes an evaluation
// reads from memory (80 instead of 160 per sample at d = 20), and as float64
// below that, where the sweeps are bound by instructions and widening every
// element (VCVTPS2PD: two FMA-port µops per 8 elements, once per element in
// FreqStep, whose body stashes the widened panel for its gradient sums)
// would cost more than it saves (in cache, same process: FreqStep 4 %,
// Sincos 15 % slower on float32 panels, n = 2048 and 4096, d = 20). On the
// other paths: column-major over all n samples (their one-group loops would
// read a panel across its rows), float32 from float32From where the path
// has float32 column bodies (asm.Columns32: AVX2), else float64. The results
// are the same bits in every layout. Use At to read a value back.
type Data struct {
	N, D    int
	x32     []float32 // float32 panels (AVX-512, large X), else column-major float32 (AVX2, large X)
	xb      []float64 // float64 panels (AVX-512, small X), else column-major with row stride N
	panel   bool      // panels of BlockLen (in x32 if it is set, else in xb)
	threads int       // 0: GOMAXPROCS (see SetThreads)
}

// float32From is the number of values n·d from which an AVX-512 Data stores
// float32 panels (and an AVX2 one float32 columns): 4 MiB of float64, the per-core L2 of the machines rfkit is
// tuned on. Measured on the frequency step (asm BenchmarkFreqStepSumsPanels,
// d = 20, fastest iteration): in cache (n = 2048) float32 panels take 5.2
// ns/sample against 4.2 for float64; at n = 10⁵ (16 MB of float64) 5.5
// against 6.3–6.9. A variable so that tests can move it.
var float32From = 1 << 19

func numBlocks(n int) int { return (n + BlockLen - 1) / BlockLen }

// panels returns the panels of x from sample lo (a multiple of BlockLen) on
// (float32 or float64, the other nil), and whether x is panelled (if not, xb
// is column-major with row stride N). The panels of a chunk go to one asm
// ...Panels or ...Panels32 call, which feeds the lane accumulators in sample
// order: the sums of one call over the chunk in any layout.
func (x *Data) panels(lo int) ([]float32, []float64, bool) {
	if !x.panel {
		return nil, nil, false
	}
	off := (lo / BlockLen) * BlockLen * x.D
	if x.x32 != nil {
		return x.x32[off:], nil, true
	}
	return nil, x.xb[off:], true
}

// at is the index of input k of sample i in x32 or xb.
func (x *Data) at(i, k int) int {
	if !x.panel {
		return k*x.N + i
	}
	return (i/BlockLen)*BlockLen*x.D + k*BlockLen + i%BlockLen
}

// At returns input k of sample i as the sweeps see it: rounded to float32.
func (x *Data) At(i, k int) float64 {
	if x.x32 != nil {
		return float64(x.x32[x.at(i, k)])
	}
	return x.xb[x.at(i, k)]
}

// NewData copies the row-major matrix X (n rows of d values, row stride
// stride) into the layout of the selected kernel path, rounding every value
// to float32. It rejects NaN, ±Inf and values beyond the float32 range
// (|v| > math.MaxFloat32 after rounding), naming the sample and input. Its
// shape errors wrap ErrShape, including an extent (n−1)·stride + d that
// overflows an int; X is read only inside that extent, so with a valid
// shape n·d fits in memory.
func NewData(X []float64, n, d, stride int) (*Data, error) {
	if n <= 0 || d <= 0 || stride < d || n-1 > (math.MaxInt-d)/stride || len(X) < (n-1)*stride+d {
		return nil, fmt.Errorf("%w: data %d×%d with stride %d in %d values", ErrShape, n, d, stride, len(X))
	}
	x := newData(n, d)
	if err := x.fill(0, n, func(i int) []float64 { return X[i*stride : i*stride+d] }, nil, nil); err != nil {
		return nil, err
	}
	return x, nil
}

// newData allocates the n×d training copy in the layout of the selected
// kernel path.
func newData(n, d int) *Data {
	x := &Data{N: n, D: d, panel: asm.PanelLen() == BlockLen}
	switch {
	case x.panel && n >= float32From/d:
		x.x32 = make([]float32, numBlocks(n)*BlockLen*d)
	case x.panel:
		x.xb = make([]float64, numBlocks(n)*BlockLen*d)
	case asm.Columns32() && n >= float32From/d:
		x.x32 = make([]float32, n*d)
	default:
		x.xb = make([]float64, n*d)
	}
	return x
}

// fill stores samples lo ≤ i < hi, input k of sample i being row(i)[k], or
// (row(i)[k] − mean[k]) / scale[k] when mean is set, rounded to float32.
func (x *Data) fill(lo, hi int, row func(i int) []float64, mean, scale []float64) error {
	for i := lo; i < hi; i++ {
		for k, v := range row(i)[:x.D] {
			if mean != nil {
				v = (v - mean[k]) / scale[k]
			}
			v32 := float32(v)
			if math.IsNaN(v) || math.IsInf(float64(v32), 0) {
				return fmt.Errorf("exploss: sample %d, input %d is %v (the training copy needs a finite float32)", i, k, v)
			}
			if x.x32 != nil {
				x.x32[x.at(i, k)] = v32
			} else {
				x.xb[x.at(i, k)] = float64(v32)
			}
		}
	}
	return nil
}

// NewStandardizedData is NewData of the standardised rows
// (X[r·stride + k] − mean[k]) / scale[k] for r in rows (sample i is row
// rows[i]; rows nil: the rows 0 ≤ r < n, without an index slice of n ints),
// with the same bits, but without an intermediate standardised copy (16 MB
// at n = 10⁵, d = 20) and filling the layout on up to threads goroutines
// (≤ 0: GOMAXPROCS; the Data's thread limit is set to it). n must be
// len(rows) when rows is set; every row index must satisfy 0 ≤ r and
// r·stride + d ≤ len(X); mean and scale have length d. Its errors are
// NewData's.
func NewStandardizedData(X []float64, stride int, rows []int, n, d int, mean, scale []float64, threads int) (*Data, error) {
	if n <= 0 || d <= 0 || stride < d || len(X) < d || len(mean) != d || len(scale) != d || (rows != nil && len(rows) != n) {
		return nil, fmt.Errorf("%w: standardised data of %d rows (%d indices) × %d with stride %d, %d means and %d scales", ErrShape, n, len(rows), d, stride, len(mean), len(scale))
	}
	last := (len(X) - d) / stride // the last row within X
	if rows == nil && n-1 > last {
		return nil, fmt.Errorf("%w: %d rows of %d values with stride %d and %d inputs", ErrShape, n, len(X), stride, d)
	}
	for _, r := range rows {
		if r < 0 || r > last {
			return nil, fmt.Errorf("%w: row %d of %d values with stride %d and %d inputs", ErrShape, r, len(X), stride, d)
		}
	}
	x := newData(n, d)
	x.SetThreads(threads)
	errs := make([]error, numChunks(n))
	row := func(i int) []float64 {
		r := i
		if rows != nil {
			r = rows[i]
		}
		return X[r*stride : r*stride+d]
	}
	forChunks(x.threads, n, func(c, lo, hi int) { errs[c] = x.fill(lo, hi, row, mean, scale) })
	for _, err := range errs {
		if err != nil {
			return nil, err
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
	forChunks(x.threads, x.N, func(_, lo, hi int) { x.sincosChunk(s, c, omega, lo, hi) })
	return nil
}

// sincosChunk is Sincos over the samples lo ≤ i < hi (lo a multiple of
// BlockLen).
func (x *Data) sincosChunk(s, c, omega []float64, lo, hi int) {
	if m32, m64, ok := x.panels(lo); m32 != nil {
		asm.SincosDotPanels32(s[lo:hi], c[lo:hi], m32, omega)
	} else if ok {
		asm.SincosDotPanels(s[lo:hi], c[lo:hi], m64, omega)
	} else if x.x32 != nil {
		asm.SincosDot32(s[lo:hi], c[lo:hi], x.x32[lo:], x.N, omega)
	} else {
		asm.SincosDot(s[lo:hi], c[lo:hi], x.xb[lo:], x.N, omega)
	}
}

// sincosManyBlock is the number of samples SincosMany takes for all its
// frequencies before the next ones: 512 samples of X are 40 KiB of float32
// panels at d = 20, read from memory once and from L1/L2 for the other
// frequencies. A multiple of BlockLen and of 8; the outputs are per sample,
// so the split does not change a bit.
const sincosManyBlock = 8 * BlockLen

// SincosMany is Sincos for m = len(omegas)/x.D frequencies in one sweep over
// X: s[j·N + i] = sin(p_ji) and c[j·N + i] = cos(p_ji) for p_ji = Σ_k
// omegas[j·D + k]·x_ik, the bits of x.Sincos(s[j·N:(j+1)·N], c[j·N:(j+1)·N],
// omegas[j·D:(j+1)·D]) for every j. It takes the samples in blocks of a few
// hundred and runs the Sincos kernel of every frequency on a block before
// the next block, so X is streamed from memory once for all m frequencies
// (each block is re-read from cache m − 1 times) instead of m times.
func (x *Data) SincosMany(s, c, omegas []float64) error {
	n, d := x.N, x.D
	if len(omegas) == 0 || len(omegas)%d != 0 || len(s) != len(omegas)/d*n || len(c) != len(s) {
		return fmt.Errorf("%w: SincosMany with %d, %d outputs and %d weights for %d×%d data", ErrShape, len(s), len(c), len(omegas), n, d)
	}
	m := len(omegas) / d
	forChunks(x.threads, n, func(_, lo, hi int) {
		for l := lo; l < hi; l += sincosManyBlock {
			h := min(l+sincosManyBlock, hi)
			m32, m64, ok := x.panels(l)
			for j := 0; j < m; j++ {
				sj, cj, om := s[j*n+l:j*n+h], c[j*n+l:j*n+h], omegas[j*d:(j+1)*d]
				if m32 != nil {
					asm.SincosDotPanels32(sj, cj, m32, om)
				} else if ok {
					asm.SincosDotPanels(sj, cj, m64, om)
				} else if x.x32 != nil {
					asm.SincosDot32(sj, cj, x.x32[l:], n, om)
				} else {
					asm.SincosDot(sj, cj, x.xb[l:], n, om)
				}
			}
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
