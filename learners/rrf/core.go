package rrf

import (
	"math"
	"math/rand/v2"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/trig"
)

// params is the learned state shared by Learner and Model: noise e (d×D,
// row j = input j), log-widths lg and widths sc = e^{lg} (d), weights w
// (C rows of 2D: cos part then sin part) and biases b (C). C is 1 for
// binary and regression, the number of classes for multiclass.
type params struct {
	d, D, C int
	loss    Loss
	e       []float64
	lg, sc  []float64
	w, b    []float64
	inv     float64   // 1/√D
	et      []float64 // eᵀ (D×dp, zero-padded), for the width gradient
	dp      int       // d rounded up to a multiple of 8 (the kernels' block)
	ep      []float64 // e zero-padded to d×Dp, Dp = D rounded up to 8
	Dp      int
}

func newParams(d int, c Config, C int) *params {
	D := c.Features
	p := &params{d: d, D: D, C: C, loss: c.Loss, e: make([]float64, d*D),
		lg: make([]float64, d), sc: make([]float64, d), w: make([]float64, C*2*D), b: make([]float64, C)}
	r := rand.New(rand.NewPCG(c.Seed, 0x727266)) // "rrf"
	for i := range p.e {
		p.e[i] = r.NormFloat64()
	}
	l := math.Log(c.Width)
	for j := range p.lg {
		p.lg[j] = clamp(l, MaxLogWidth)
	}
	p.finish()
	return p
}

// finish computes the derived fields (sc, inv).
func (p *params) finish() {
	trig.Exp(p.sc, p.lg)
	p.inv = 1 / math.Sqrt(float64(p.D))
	p.Dp = (p.D + 7) &^ 7
	p.ep = make([]float64, p.d*p.Dp)
	for j := 0; j < p.d; j++ {
		copy(p.ep[j*p.Dp:], p.e[j*p.D:(j+1)*p.D])
	}
	p.dp = (p.d + 7) &^ 7
	p.et = make([]float64, p.D*p.dp)
	for j := 0; j < p.d; j++ {
		for k := 0; k < p.D; k++ {
			p.et[k*p.dp+j] = p.e[j*p.D+k]
		}
	}
}

func (p *params) clone() *params {
	q := *p
	q.e = append([]float64(nil), p.e...) // never modified, but a snapshot owns its arrays
	q.et = append([]float64(nil), p.et...)
	q.ep = append([]float64(nil), p.ep...)
	q.lg = append([]float64(nil), p.lg...)
	q.sc = append([]float64(nil), p.sc...)
	q.w = append([]float64(nil), p.w...)
	q.b = append([]float64(nil), p.b...)
	return &q
}

// work is the per-sample scratch space.
type work struct {
	u, sin, cos []float64 // d, D, D
	f           []float64 // C scores
	a, b        []float64 // D: −sin_k Σ_c g_c w_c,k and cos_k Σ_c g_c w_c,D+k
	h, zero     []float64 // d: Σ_k e_jk (a_k + b_k); d zeros
	acc         [8]float64
}

func (p *params) newWork() *work {
	return &work{u: make([]float64, p.d), sin: make([]float64, p.Dp), cos: make([]float64, p.Dp),
		f: make([]float64, p.C), a: make([]float64, p.D), b: make([]float64, p.D),
		h: make([]float64, p.dp), zero: make([]float64, p.dp)}
}

// features sets s.sin, s.cos to the sines and cosines of the phases x·ω_k.
func (p *params) features(s *work, x []float64) {
	u := s.u[:p.d]
	for j, v := range x[:p.d] {
		u[j] = float64(v * p.sc[j])
	}
	asm.SincosDot(s.sin, s.cos, p.ep, p.Dp, u)
}

// scores sets s.f[c] = w_c·φ + b_c from the features in s.
func (p *params) scores(s *work) {
	D := p.D
	for c := 0; c < p.C; c++ {
		row := p.w[c*2*D : (c+1)*2*D]
		v := dot2(row[:D], s.cos[:D], row[D:], s.sin[:D])
		s.f[c] = float64(v*p.inv) + p.b[c]
	}
}

// dot2 is a·b + c·d (equal lengths) with four FMA chains combined in a
// fixed order: the same bits on every architecture.
func dot2(a, b, c, d []float64) float64 {
	n := len(a)
	b, c, d = b[:n], c[:n], d[:n]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+2 <= n; k += 2 {
		s0 = math.FMA(a[k], b[k], s0)
		s1 = math.FMA(c[k], d[k], s1)
		s2 = math.FMA(a[k+1], b[k+1], s2)
		s3 = math.FMA(c[k+1], d[k+1], s3)
	}
	for ; k < n; k++ {
		s0 = math.FMA(a[k], b[k], s0)
		s1 = math.FMA(c[k], d[k], s1)
	}
	return (s0 + s2) + (s1 + s3)
}

// argmax returns the index of the largest of f (the first on ties) and,
// when skip ≥ 0, the largest other than skip.
func argmax(f []float64, skip int) int {
	best := -1
	for c, v := range f {
		if c == skip {
			continue
		}
		if best < 0 || v > f[best] {
			best = c
		}
	}
	return best
}

// sigmoid is 1/(1 + e^{−z}), stable for any z.
func sigmoid(z float64, tmp *[1]float64) float64 {
	tmp[0] = -math.Abs(z)
	trig.Exp(tmp[:], tmp[:])
	e := tmp[0] // e^{−|z|} ∈ (0, 1]
	if z >= 0 {
		return 1 / (1 + e)
	}
	return e / (1 + e)
}

// softplus is log(1 + e^{z}) computed stably (for reporting only).
func softplus(z float64) float64 {
	return math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z)))
}

func clamp(v, lim float64) float64 {
	switch {
	case v > lim:
		return lim
	case v < -lim:
		return -lim
	}
	return v
}

// lossGrad returns the loss and its derivatives for the scores s.f and the
// target t (±1 for binary, the class index for multiclass, the value for
// regression): g[0] for row r0 (and g[1] for row r1 in multiclass, r1 < 0
// otherwise).
func (p *params) lossGrad(s *work, t float64, tmp *[1]float64) (loss float64, r0, r1 int, g0, g1 float64) {
	if p.C > 1 { // Crammer–Singer
		y := int(t)
		r := argmax(s.f, y)
		m := s.f[y] - s.f[r]
		switch p.loss {
		case Hinge:
			if m < 1 {
				return 1 - m, y, r, -1, 1
			}
			return 0, y, r, 0, 0
		default: // Logistic
			sg := sigmoid(-m, tmp)
			return softplus(-m), y, r, -sg, sg
		}
	}
	f := s.f[0]
	switch p.loss {
	case Hinge:
		if float64(t*f) < 1 {
			return 1 - float64(t*f), 0, -1, -t, 0
		}
		return 0, 0, -1, 0, 0
	case Logistic:
		z := float64(t * f)
		return softplus(-z), 0, -1, -t * sigmoid(-z, tmp), 0
	}
	r := f - t
	switch p.loss {
	case L1:
		return math.Abs(r), 0, -1, sign(r), 0
	case EpsInsensitive:
		if math.Abs(r) > Epsilon {
			return math.Abs(r) - Epsilon, 0, -1, sign(r), 0
		}
		return 0, 0, -1, 0, 0
	}
	return float64(r*r) / 2, 0, -1, clamp(r, MaxGrad), 0
}

func sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// grads is the gradient accumulator of a step (or a mini-batch).
type grads struct {
	w, b, lg []float64 // C·2D, C, d
	touched  bool
}

func (p *params) newGrads() *grads {
	return &grads{w: make([]float64, len(p.w)), b: make([]float64, p.C), lg: make([]float64, p.d)}
}

func (g *grads) reset() {
	if g.touched {
		clear(g.w)
		clear(g.b)
		clear(g.lg)
		g.touched = false
	}
}

// accumulate adds the gradient of one sample (x, with features and scores
// already in s) to g: rows r0 (derivative g0) and r1 (g1, if r1 ≥ 0).
func (p *params) accumulate(g *grads, s *work, x []float64, r0, r1 int, g0, g1 float64, widths bool) {
	if g0 == 0 && g1 == 0 {
		return
	}
	g.touched = true
	D := p.D
	if widths {
		// a_k + b_k = Σ_c g_c (−sin_k w_c,k + cos_k w_c,D+k), w before the step.
		a, b := s.a[:D], s.b[:D]
		row := p.w[r0*2*D : (r0+1)*2*D]
		for k := range a {
			a[k] = -float64(s.sin[k] * float64(g0*row[k]))
			b[k] = float64(s.cos[k] * float64(g0*row[D+k]))
		}
		if r1 >= 0 {
			row := p.w[r1*2*D : (r1+1)*2*D]
			for k := range a {
				a[k] -= float64(s.sin[k] * float64(g1*row[k]))
				b[k] += float64(s.cos[k] * float64(g1*row[D+k]))
			}
		}
		// h_j = Σ_k e_jk (a_k + b_k) in one fused pass over eᵀ.
		asm.DotStats(s.h, s.zero, p.et, a, p.et, b, p.dp, &s.acc)
		for j, v := range s.h[:p.d] {
			g.lg[j] += float64(float64(float64(p.sc[j]*x[j])*p.inv) * v)
		}
	}
	add := func(r int, gr float64) {
		gw := g.w[r*2*D : (r+1)*2*D]
		a := float64(gr * p.inv)
		for k, c := range s.cos[:D] {
			gw[k] += float64(a * c)
		}
		for k, sn := range s.sin[:D] {
			gw[D+k] += float64(a * sn)
		}
		g.b[r] += gr
	}
	add(r0, g0)
	if r1 >= 0 {
		add(r1, g1)
	}
}

// apply takes the step w ← (1 − ηλ)w − (ηD/n)Σ∂ℓ/∂w, b ← b − (η/n)Σ∂ℓ/∂f,
// γ̃ ← clamp(γ̃ − clamp((η_γ/n)Σ∂ℓ/∂γ̃)) for a batch of n samples.
func (p *params) apply(g *grads, n int, c *Config, widths bool) {
	decay := 1 - float64(c.Eta*c.Lambda)
	for k, v := range p.w {
		p.w[k] = float64(decay * v)
	}
	if !g.touched {
		return
	}
	// Eta is in the reference's units (features without 1/√D): the weight
	// step is η·D, the bias (one more feature of the reference's scale) η.
	a := float64(c.Eta*float64(p.D)) / float64(n)
	for k, v := range g.w {
		p.w[k] -= float64(a * v)
	}
	ab := c.Eta / float64(n)
	for k, v := range g.b {
		p.b[k] -= float64(ab * v)
	}
	if !widths {
		return
	}
	ag := c.EtaGamma / float64(n)
	changed := false
	for j, v := range g.lg {
		step := float64(ag * v)
		if step == 0 || math.IsNaN(step) {
			continue
		}
		p.lg[j] = clamp(p.lg[j]-clamp(step, MaxLogStep), MaxLogWidth)
		changed = true
	}
	if changed {
		trig.Exp(p.sc, p.lg)
	}
}
