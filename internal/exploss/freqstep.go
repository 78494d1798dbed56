package exploss

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/internal/asm"
)

// FreqStep evaluates the GBRFF2 frequency objective and its gradient in one
// sweep over the data:
//
//	L(ω) = (1/n) Σ_i exp(−ỹ_i·cos(ω·x_i − b)) + λ‖ω‖²
//	∇L   = (1/n) Σ_i ỹ_i·sin(ω·x_i − b)·e^{−ỹ_i cos(ω·x_i − b)}·x_i + 2λω
//
// Every evaluation also keeps the projections p_i = ω·x_i it computed (the
// bits Data.Sincos computes), so that Sincos at an evaluated ω needs no
// sweep over X; see Sincos and Restart. They go to two n-length buffers of
// its own, made at the first evaluation, or to two of the caller's
// (UseProjections).
type FreqStep struct {
	x    *Data
	yt   []float64
	part [][]float64 // per chunk: Σe, then the d gradient sums

	// The projections of two evaluations: slot best that of the lowest
	// objective since Restart (−1: none yet), the other one the latest
	// evaluation, unless that is best itself. at[s] is the ω of slot s (nil:
	// the slot holds nothing valid), loss[s] its objective. own holds the
	// buffers of its own, made when first needed (UseProjections sets proj
	// to the caller's).
	proj [2][]float64
	own  [2][]float64
	at   [2][]float64
	loss [2]float64
	best int
}

// NewFreqStep prepares the sweep over x with targets ỹ (len x.N, finite).
// yt is used, not copied.
func NewFreqStep(x *Data, yt []float64) (*FreqStep, error) {
	if x == nil || len(yt) != x.N {
		return nil, fmt.Errorf("%w: FreqStep with %d targets", ErrShape, len(yt))
	}
	if err := checkFiniteSlice("yt", yt); err != nil {
		return nil, err
	}
	part := make([][]float64, numChunks(x.N))
	for c := range part {
		part[c] = make([]float64, 1+x.D)
	}
	return &FreqStep{x: x, yt: yt, part: part, best: -1}, nil
}

// UseProjections makes the evaluations from now on store their projections
// in p0 and p1 (distinct, len x.N each) instead of buffers of f's own (nil,
// nil: f's own again) and forgets the evaluations kept so far, as after
// NewFreqStep. f writes them at every evaluation and reads them in Sincos
// and Correlation; the caller must not write them while f may read them
// (but see Spare). A caller whose round leaves two n-length buffers idle
// during the frequency step saves f's 2n values so.
func (f *FreqStep) UseProjections(p0, p1 []float64) error {
	if (p0 == nil) != (p1 == nil) || p0 != nil && (len(p0) != f.x.N || len(p1) != f.x.N || &p0[0] == &p1[0]) {
		return fmt.Errorf("%w: FreqStep projections of %d and %d values (distinct, or both nil) for %d samples", ErrShape, len(p0), len(p1), f.x.N)
	}
	f.proj = [2][]float64{p0, p1}
	if p0 == nil {
		f.proj = f.own
	}
	for s := range f.at {
		f.at[s] = f.at[s][:0]
		f.loss[s] = math.Inf(1)
	}
	f.best = -1
	return nil
}

// Spare returns the projection buffer that does not hold the projections
// at ω, when ω is bitwise one of the two points kept (see Sincos) and the
// other buffer exists, and forgets the evaluation the buffer held; else
// nil. The caller may write it until the next Eval or UseProjections: for
// instance as the output h of Correlation at ω, which then needs no
// n-length buffer of its own.
func (f *FreqStep) Spare(omega []float64) []float64 {
	for slot, at := range f.at {
		if len(at) == 0 || !sameBits(at, omega) {
			continue
		}
		o := 1 - slot
		if f.proj[o] == nil {
			return nil
		}
		f.forget(f.proj[o])
		return f.proj[o]
	}
	return nil
}

// Restart begins a new search: the evaluations so far no longer compete
// with the next ones for the slot of the lowest objective (call it when the
// objective changes: new targets ỹ, another b or λ). The projections kept
// stay valid for Sincos until the next evaluations overwrite them.
func (f *FreqStep) Restart() {
	if f.best >= 0 {
		f.loss[f.best] = math.Inf(1)
	}
}

// Eval returns L(ω) and writes ∇L to grad (len d). lambda ≥ 0. It runs on
// up to x.Threads() goroutines (see Data.SetThreads), read at each call.
func (f *FreqStep) Eval(omega []float64, b, lambda float64, grad []float64) (float64, error) {
	d, n := f.x.D, f.x.N
	if len(omega) != d || len(grad) != d {
		return 0, fmt.Errorf("%w: FreqStep with ω %d and gradient %d for %d inputs", ErrShape, len(omega), len(grad), d)
	}
	x := f.x
	// The slot that is not the best: the previous latest evaluation (or an
	// old best) makes way.
	slot := 0
	if f.best == 0 {
		slot = 1
	}
	f.at[slot] = f.at[slot][:0]
	if f.proj[slot] == nil {
		f.own[slot] = make([]float64, n)
		f.proj[slot] = f.own[slot]
	}
	proj := f.proj[slot]
	forChunks(x.threads, n, func(c, lo, hi int) {
		var acc [8]float64
		var accX [maxStackInputs][8]float64
		var ax [][8]float64
		if d <= maxStackInputs {
			ax = accX[:d]
		} else {
			ax = make([][8]float64, d)
		}
		if m32, m64, ok := x.panels(lo); m32 != nil {
			asm.FreqStepSumsPanels32(proj[lo:hi], f.yt[lo:hi], m32, omega, b, &acc, ax)
		} else if ok {
			asm.FreqStepSumsPanels(proj[lo:hi], f.yt[lo:hi], m64, omega, b, &acc, ax)
		} else if x.x32 != nil {
			asm.FreqStepSums32(proj[lo:hi], f.yt[lo:hi], x.x32[lo:], x.N, omega, b, &acc, ax)
		} else {
			asm.FreqStepSums(proj[lo:hi], f.yt[lo:hi], x.xb[lo:], x.N, omega, b, &acc, ax)
		}
		p := f.part[c]
		p[0] = asm.SumLanes(&acc)
		for k := range ax {
			p[1+k] = asm.SumLanes(&ax[k])
		}
	})
	var loss float64
	clear(grad)
	for _, p := range f.part {
		loss += p[0]
		for k := range grad {
			grad[k] += p[1+k]
		}
	}
	inv := 1 / float64(n)
	var sq float64
	for k, w := range omega {
		sq += float64(w * w)
		// float64(·) stops the compiler fusing these into FMAs on some
		// architectures only: the model bytes must not depend on the CPU.
		grad[k] = float64(grad[k]*inv) + float64(2*lambda*w)
	}
	l := float64(loss*inv) + float64(lambda*sq)
	f.at[slot] = append(f.at[slot], omega...)
	f.loss[slot] = l
	if f.best < 0 || l < f.loss[f.best] {
		f.best = slot
	}
	return l, nil
}

// Sincos sets s[i] = sin(ω·x_i) and c[i] = cos(ω·x_i), the bits of
// x.Sincos(s, c, omega). When ω is bitwise the point of one of the two
// evaluations kept (the latest, and the one of the lowest objective since
// Restart) it takes the sines and cosines of the projections that
// evaluation stored (asm.Sincos: an O(n) pass that does not read X) and
// returns true; otherwise (or when s or c is that evaluation's buffer, see
// UseProjections) it sweeps X (Data.Sincos) and returns false.
func (f *FreqStep) Sincos(s, c, omega []float64) (bool, error) {
	x := f.x
	if len(s) != x.N || len(c) != x.N || len(omega) != x.D {
		return false, fmt.Errorf("%w: Sincos with %d, %d outputs and %d weights for %d×%d data", ErrShape, len(s), len(c), len(omega), x.N, x.D)
	}
	for slot, at := range f.at {
		if len(at) > 0 && sameBits(at, omega) && !sameStart(s, f.proj[slot]) && !sameStart(c, f.proj[slot]) {
			p := f.proj[slot]
			forChunks(x.threads, x.N, func(_, lo, hi int) {
				asm.Sincos(s[lo:hi], c[lo:hi], p[lo:hi])
			})
			f.forget(s, c)
			return true, nil
		}
	}
	f.forget(s, c)
	return false, x.Sincos(s, c, omega)
}

// forget drops the kept evaluations whose projections are in one of the
// buffers bufs (about to be written).
func (f *FreqStep) forget(bufs ...[]float64) {
	for slot, p := range f.proj {
		for _, b := range bufs {
			if p != nil && sameStart(p, b) {
				f.at[slot], f.loss[slot] = f.at[slot][:0], math.Inf(1)
				if f.best == slot {
					f.best = -1
				}
			}
		}
	}
}

// Correlation sets h[i] = cos b·cos(ω·x_i) + sin b·sin(ω·x_i), that is
// cos(ω·x_i − b), given cb = cos b and sb = sin b, and returns Σ_i ỹ_i·h_i:
// the bits of Sincos(s, c, omega) followed by
// x.WeightedCorrelation(h, ỹ, c, s, []float64{cb}, []float64{sb}), in one
// pass over the projections of a kept evaluation (see Sincos) that reads no
// X and neither stores the sines and cosines nor reads them back
// (asm.SincosStats). When ω is not a point kept it returns ok = false and
// leaves h alone: the caller then takes that two-pass route.
func (f *FreqStep) Correlation(h, omega []float64, cb, sb float64) (corr float64, ok bool, err error) {
	x := f.x
	if len(h) != x.N || len(omega) != x.D {
		return 0, false, fmt.Errorf("%w: Correlation with %d outputs and %d weights for %d×%d data", ErrShape, len(h), len(omega), x.N, x.D)
	}
	for slot, at := range f.at {
		if len(at) == 0 || !sameBits(at, omega) {
			continue
		}
		p := f.proj[slot]
		if sameStart(h, p) {
			return 0, false, fmt.Errorf("%w: Correlation writing the projections it reads", ErrShape)
		}
		f.forget(h)
		part := f.part // per chunk: the correlation in slot 0
		forChunks(x.threads, x.N, func(c, lo, hi int) {
			var acc [8]float64
			asm.SincosStats(h[lo:hi], f.yt[lo:hi], p[lo:hi], cb, sb, &acc)
			part[c][0] = asm.SumLanes(&acc)
		})
		for _, q := range part {
			corr += q[0]
		}
		return corr, true, nil
	}
	return 0, false, nil
}

// sameStart reports whether a and b start at the same element (both len ≥ 1).
func sameStart(a, b []float64) bool { return &a[0] == &b[0] }

// sameBits reports whether a and b hold the same bits.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// maxStackInputs is the largest d whose gradient accumulators live on the
// stack of a chunk; larger d allocates them per chunk.
const maxStackInputs = 64
