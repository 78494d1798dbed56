package exploss

import (
	"fmt"

	"github.com/rfkit/rfkit/asm"
)

// FreqStep evaluates the GBRFF2 frequency objective and its gradient in one
// sweep over the data:
//
//	L(ω) = (1/n) Σ_i exp(−ỹ_i·cos(ω·x_i − b)) + λ‖ω‖²
//	∇L   = (1/n) Σ_i ỹ_i·sin(ω·x_i − b)·e^{−ỹ_i cos(ω·x_i − b)}·x_i + 2λω
type FreqStep struct {
	x    *Data
	yt   []float64
	part [][]float64 // per chunk: Σe, then the d gradient sums
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
	return &FreqStep{x: x, yt: yt, part: part}, nil
}

// Eval returns L(ω) and writes ∇L to grad (len d). lambda ≥ 0. It runs on
// up to x.Threads() goroutines (see Data.SetThreads), read at each call.
func (f *FreqStep) Eval(omega []float64, b, lambda float64, grad []float64) (float64, error) {
	d, n := f.x.D, f.x.N
	if len(omega) != d || len(grad) != d {
		return 0, fmt.Errorf("%w: FreqStep with ω %d and gradient %d for %d inputs", ErrShape, len(omega), len(grad), d)
	}
	x := f.x
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
			asm.FreqStepSumsPanels32(f.yt[lo:hi], m32, omega, b, &acc, ax)
		} else if ok {
			asm.FreqStepSumsPanels(f.yt[lo:hi], m64, omega, b, &acc, ax)
		} else {
			asm.FreqStepSums(f.yt[lo:hi], x.xb[lo:], x.N, omega, b, &acc, ax)
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
	return float64(loss*inv) + float64(lambda*sq), nil
}

// maxStackInputs is the largest d whose gradient accumulators live on the
// stack of a chunk; larger d allocates them per chunk.
const maxStackInputs = 64
