package exploss

import (
	"fmt"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/internal/xmath"
)

// Phase evaluates the GBRFF2 phase objective for one frequency ω, given
// c_i = cos(ω·x_i) and s_i = sin(ω·x_i):
//
//	f(b) = Σ_i exp(−ỹ_i·cos(ω·x_i − b)),  cos(ω·x_i − b) = c_i·cos b + s_i·sin b
//
// and f'(b) together, one exp per sample per evaluation. The sums are not
// divided by n (the minimiser does not care).
type Phase struct {
	c, s, yt []float64
	part     [][2]float64
}

// NewPhase prepares the phase search over c, s and ỹ (equal lengths, finite).
// The slices are used, not copied: keep them unchanged while p is in use.
func NewPhase(c, s, yt []float64) (*Phase, error) {
	n := len(yt)
	if n == 0 || len(c) != n || len(s) != n {
		return nil, fmt.Errorf("%w: Phase with c %d, s %d, yt %d", ErrShape, len(c), len(s), n)
	}
	for _, e := range []error{checkFiniteSlice("c", c), checkFiniteSlice("s", s), checkFiniteSlice("yt", yt)} {
		if e != nil {
			return nil, e
		}
	}
	return &Phase{c: c, s: s, yt: yt, part: make([][2]float64, numChunks(n))}, nil
}

// Eval returns f(b) and f'(b).
func (p *Phase) Eval(b float64) (f, df float64) {
	sb, cb := xmath.Sincos(b)
	return p.EvalCS(cb, sb)
}

// EvalCS is Eval given cos b and sin b.
func (p *Phase) EvalCS(cb, sb float64) (f, df float64) {
	n := len(p.yt)
	forChunks(n, func(c, lo, hi int) {
		var acc [2][8]float64
		asm.PhaseSums(p.c[lo:hi], p.s[lo:hi], p.yt[lo:hi], cb, sb, &acc)
		p.part[c] = [2]float64{asm.SumLanes(&acc[0]), asm.SumLanes(&acc[1])}
	})
	var g float64
	for _, q := range p.part {
		f += q[0]
		g += q[1]
	}
	return f, -g
}
