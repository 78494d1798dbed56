package gbrff

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/rfkit/rfkit/internal/exploss"
	"github.com/rfkit/rfkit/internal/xmath"
)

// maxSubsample bounds Config.Subsample: more rows than any fit can hold,
// so that it means "every row" for any data (a larger value is a
// mistake, refused by name).
const maxSubsample = math.MaxInt32 // 2³¹ − 1 rows of 20 float64 inputs would be 344 GB; an int on every GOARCH

// subsampleRule is the number of rows m each round of a binary GBRFF2 fit
// of n training rows searches b and ω on: Config.Subsample, or
// defaultSubsample(n) when it is 0; 0 (every row, no subsample) when
// n < 1.5·m: a round on m rows and its sweeps over all n costs about
// what a round on n rows costs when m ≈ 2n/3 (see subsampleChunks).
func subsampleRule(c Config, n int) int {
	m := c.Subsample
	if m == 0 {
		m = defaultSubsample(n)
	}
	if m == 0 || n/3 < m/2 || c.Variant != VariantGBRFF2 || c.ReoptimizePhase {
		return 0
	}
	return m
}

// defaultSubsample is the default Config.Subsample for n training rows:
// min(subsampleChunks, ⌊n/(2·ChunkLen)⌋) chunks of exploss.ChunkLen rows,
// or n/subsampleShare when that is more; 0 (every row) below 2·ChunkLen.
func defaultSubsample(n int) int {
	k := min(subsampleChunks, n/(2*exploss.ChunkLen))
	if k == 0 {
		return 0
	}
	return max(k*exploss.ChunkLen, n/subsampleShare)
}

// subsample holds a binary GBRFF2 fit's per-round subsample (Friedman's
// stochastic gradient boosting, applied to the search only): each round
// draws mb blocks of exploss.BlockLen consecutive training rows out of the
// nb whole blocks, one uniformly in each of mb equal strata of the block
// order (so every row of a whole block has probability mb/nb; the last
// n mod 64 rows are never searched on), copies their inputs (the bits of
// the full copy, one contiguous copy per block and input: in the first
// round by exploss.Data.GatherBlocks, after it during the previous round's
// sweep of h, exploss.Data.SincosCorrelation) and their targets ỹ, and searches
// b and ω on them with
// the same sweeps as a full round. h = cos(ω·x − b), α and the weight
// update then run over every row (round2sub). Blocks, not single rows: a
// row-by-row standardised copy of 2·10⁴ of 10⁵ rows cost 5 ms a round
// (1.5 of the fit's 2.1 CPU-s at d = 20), more than the search it saves,
// and any row-by-row copy touches a cache line of every input of nearly
// every row of X. The price: rows given in an order that groups similar
// ones (sorted, or a time series) reach a round 64 neighbours at a time,
// though the strata still spread the blocks over the whole order.
type subsample struct {
	mb, nb int
	rng    *rand.Rand
	starts []int // this round's blocks: their first training rows
	// ready: x already holds the inputs of the blocks at starts, copied by
	// the previous round's sweep of h (exploss.Data.SincosCorrelation)
	ready bool
	x     *exploss.Data
	yt    []float64
	s, c  []float64
	fs    *exploss.FreqStep
	ph    *exploss.Phase
	sumW  float64 // Σ|ỹ| over the subsample: its boosting weights
}

// newSubsample is the subsample of m rows (rounded up to whole blocks) of
// n training rows, or nil when n has no more whole blocks than that.
func newSubsample(c Config, n, m int) *subsample {
	bl := exploss.BlockLen
	mb, nb := (m+bl-1)/bl, n/bl
	if mb >= nb {
		return nil
	}
	return &subsample{mb: mb, nb: nb,
		rng:    rand.New(rand.NewPCG(c.Seed, 0x5b5a3e)),
		starts: make([]int, mb),
		yt:     make([]float64, mb*bl), s: make([]float64, mb*bl), c: make([]float64, mb*bl)}
}

// drawStarts picks the blocks of a round, block j uniform in
// [⌊j·nb/mb⌋, ⌊(j+1)·nb/mb⌋) (so the starts increase).
func (sb *subsample) drawStarts() {
	bl := exploss.BlockLen
	nb, mb := uint64(sb.nb), uint64(sb.mb)
	for j := range sb.starts {
		lo := div(uint64(j), nb, mb)
		hi := div(uint64(j)+1, nb, mb)
		sb.starts[j] = int(lo+sb.rng.Uint64N(hi-lo)) * bl
	}
}

// drawSubsample readies this round's subsample: its targets ỹ and their
// sum, and — unless the previous round's sweep of h copied them (ready) —
// its blocks, drawn here, and their inputs. The blocks are drawn in round
// order either way, so the rows of every round are the same.
func (f *fitter) drawSubsample() error {
	sb := f.sub
	if sb.ready {
		sb.ready = false
		sum, err := f.x.GatherVector(sb.starts, f.yt, sb.yt)
		if err != nil {
			return err
		}
		sb.sumW = sum
		f.st.SubPasses++
		return sb.fs.UseProjections(nil, nil)
	}
	sb.drawStarts()
	x, sum, err := f.x.GatherBlocks(sb.x, sb.starts, f.yt, sb.yt)
	if err != nil {
		return err
	}
	sb.sumW = sum
	if sb.x == nil {
		sb.x = x
		if sb.fs, err = exploss.NewFreqStep(sb.x, sb.yt); err != nil {
			return err
		}
		if sb.ph, err = exploss.NewPhase(sb.c, sb.s, sb.yt); err != nil {
			return err
		}
		sb.ph.SetThreads(f.threads)
	}
	f.st.SubPasses++
	f.st.SubXPasses++
	// the step's stored projections are of the old rows: forget them
	return sb.fs.UseProjections(nil, nil)
}

// div is ⌊a·n/m⌋ for a ≤ m, without overflow.
func div(a, n, m uint64) uint64 {
	hi, lo := bits.Mul64(a, n)
	q, _ := bits.Div64(hi, lo, m)
	return q
}

// round2sub is round2 with the search on a subsample: b by the circle
// search and ω by L-BFGS on this round's m rows, then h = cos(ω·x − b) and
// its correlation over every row in one sweep of X
// (exploss.Data.SincosCorrelation), α from it, and the update over every
// row.
func (f *fitter) round2sub(t int) error {
	d := f.d
	sb := f.sub
	if err := f.drawSubsample(); err != nil {
		return err
	}
	omega0 := f.omega[t*d : (t+1)*d]
	if err := sb.x.Sincos(sb.s, sb.c, omega0); err != nil {
		return err
	}
	f.st.SubPasses++
	f.st.SubXPasses++
	b, passes, evals, err := circleSearch(sb.ph.EvalMany, phaseSearch.GridPoints, phaseSearch.Candidates)
	if err != nil {
		return err
	}
	f.st.SubPasses += passes
	f.st.PhasePasses += passes
	f.st.PhaseEvals += evals
	fs, lambda := sb.fs, f.c.Lambda
	// the scaling of round2's objective, by the subsample's mean weight
	inv := 1 / math.Max(sb.sumW/float64(len(sb.yt)), 1e-10)
	obj := func(x, g []float64) float64 {
		l, _ := fs.Eval(x, b, lambda, g)
		f.st.SubPasses++
		f.st.SubXPasses++
		f.st.FreqEvals++
		for k := range g {
			g[k] *= inv
		}
		return float64((l - 1) * inv)
	}
	f.startNorm = norm2(omega0)
	w := f.opt.minimize(obj, omega0)
	// h = cos(w·x − b) and its correlation over every row in one sweep,
	// which also copies the next round's blocks into sb.x, whose search is
	// over
	sinb, cosb := xmath.Sincos(b)
	var starts []int
	if t+1 < f.c.T {
		sb.drawStarts()
		starts = sb.starts
	}
	x, corr, err := f.x.SincosCorrelation(f.h, f.s, f.cs, f.yt, w, cosb, sinb, sb.x, starts)
	if err != nil {
		return err
	}
	if starts != nil {
		if x != sb.x {
			return fmt.Errorf("gbrff: the subsample's inputs moved (%d rows)", x.N) // same shape: cannot happen
		}
		sb.ready = true
	}
	f.countX(1)
	f.st.SettleXPasses++
	alpha := f.step(corr)
	f.addTerm(w, -b, alpha)
	if err := f.update(alpha); err != nil {
		return err
	}
	return f.observe([][]float64{w}, []float64{-b}, []float64{1}, alpha)
}
