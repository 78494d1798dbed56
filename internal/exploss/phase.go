package exploss

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/asm"
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
	threads  int
	many     []float64 // EvalMany: per chunk and phase, Σe and Σ e·ỹ·(s·cos b − c·sin b)
	cs       []float64 // EvalMany: cos b and sin b of every b
}

// SetThreads limits the sweeps of p to n goroutines (n ≤ 0: GOMAXPROCS,
// the default); the results do not depend on it.
func (p *Phase) SetThreads(n int) { p.threads = max(n, 0) }

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

// SetSincos makes p read c and s (len n each) from now on instead of the
// slices it was made or last set with, without copying them or checking
// their values again: like those slices they must hold finite values (the
// cosines and sines of finite projections do) and stay unchanged while p
// is in use. It returns a shape error, leaving p alone, on other lengths.
func (p *Phase) SetSincos(c, s []float64) error {
	if len(c) != len(p.yt) || len(s) != len(p.yt) {
		return fmt.Errorf("%w: Phase with c %d, s %d, yt %d", ErrShape, len(c), len(s), len(p.yt))
	}
	p.c, p.s = c, s
	return nil
}

// Eval returns f(b) and f'(b).
func (p *Phase) Eval(b float64) (f, df float64) {
	sb, cb := xmath.Sincos(b)
	return p.EvalCS(cb, sb)
}

// EvalCS is Eval given cos b and sin b.
func (p *Phase) EvalCS(cb, sb float64) (f, df float64) {
	n := len(p.yt)
	forChunks(p.threads, n, func(c, lo, hi int) {
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

// EvalMany sets f[j] = f(bs[j]) and df[j] = f'(bs[j]) for every candidate
// phase in one pass over the data: each chunk of c, s and ỹ (96 KiB) is read
// from memory once and swept for every b while it sits in cache, and the
// pool is woken once instead of len(bs) times. The results are the bits
// Eval(bs[j]) returns. f and df must have len(bs); an empty bs does nothing.
func (p *Phase) EvalMany(bs, f, df []float64) error {
	m := len(bs)
	if len(f) != m || len(df) != m {
		return fmt.Errorf("%w: EvalMany with %d phases, %d and %d outputs", ErrShape, m, len(f), len(df))
	}
	if m == 0 {
		return nil
	}
	n, nc := len(p.yt), len(p.part)
	if cap(p.many) < 2*m*nc {
		p.many = make([]float64, 2*m*nc)
	}
	if cap(p.cs) < 2*m {
		p.cs = make([]float64, 2*m)
	}
	part, cs := p.many[:2*m*nc], p.cs[:2*m]
	for j, b := range bs {
		cs[2*j+1], cs[2*j] = xmath.Sincos(b)
	}
	forChunks(p.threads, n, func(c, lo, hi int) {
		for j := 0; j < m; j++ {
			var acc [2][8]float64
			asm.PhaseSums(p.c[lo:hi], p.s[lo:hi], p.yt[lo:hi], cs[2*j], cs[2*j+1], &acc)
			part[2*(c*m+j)], part[2*(c*m+j)+1] = asm.SumLanes(&acc[0]), asm.SumLanes(&acc[1])
		}
	})
	for j := 0; j < m; j++ {
		var fs, g float64
		for c := 0; c < nc; c++ {
			fs += part[2*(c*m+j)]
			g += part[2*(c*m+j)+1]
		}
		f[j], df[j] = fs, -g
	}
	return nil
}
