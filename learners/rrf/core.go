package rrf

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners/internal/vec"
	"github.com/rfkit/rfkit/trig"
)

// params is the learned state shared by Learner and Model: noise e (d×D,
// row j = input j), log-widths lg and widths sc = e^{lg} (d), weights w
// (C rows of 2D: cos part then sin part) and biases b (C). C is 1 for
// binary and regression, the number of classes for multiclass. The rest is
// derived from e (finish) in the layouts the kernels want.
type params struct {
	d, D, C int
	loss    Loss
	e       []float64
	lg, sc  []float64
	w, b    []float64
	inv     float64 // 1/√D
	// ep is e zero-padded to d×Dp (Dp = D rounded up to 8): the phases
	// x·ω_k are one SincosDot sweep with k along the vector lanes.
	ep []float64
	Dp int
	// et is eᵀ zero-padded to 2H×dp (H = ⌈D/2⌉, dp = d rounded up to 8):
	// the width gradient Σ_k e_jk q_k is one DotStats sweep that takes its
	// rows as two halves of H (DotStats' two matrix operands), so every
	// k is one FMA of a single chain and nothing is computed twice.
	et []float64
	H  int
	dp int
}

func newParams(d int, c Config, C int) *params {
	D := c.Features
	p := &params{d: d, D: D, C: C, loss: c.Loss, e: make([]float64, d*D),
		lg: make([]float64, d), w: make([]float64, C*2*D), b: make([]float64, C)}
	// xrand, not rand.NormFloat64, whose ziggurat tail calls math.Log and
	// math.Exp: their bits differ between amd64 and arm64.
	xrand.FillNormal(rand.New(rand.NewPCG(c.Seed, 0x727266)), p.e) // "rrf"
	l := xmath.Log(c.Width)
	for j := range p.lg {
		p.lg[j] = clamp(l, maxLogWidth)
	}
	p.finish()
	return p
}

// finish computes the derived fields from d, D, e and lg: sc, inv and the
// kernel layouts (lg is copied into a padded array).
func (p *params) finish() {
	p.dp = (p.d + 7) &^ 7
	p.lg = padded(p.lg, p.dp)
	p.sc = padded(nil, p.dp)[:p.d]
	p.exp()
	p.inv = 1 / math.Sqrt(float64(p.D))
	p.Dp = (p.D + 7) &^ 7
	p.ep = make([]float64, p.d*p.Dp)
	for j := 0; j < p.d; j++ {
		copy(p.ep[j*p.Dp:], p.e[j*p.D:(j+1)*p.D])
	}
	p.H = (p.D + 1) / 2
	p.et = make([]float64, 2*p.H*p.dp)
	for j := 0; j < p.d; j++ {
		for k := 0; k < p.D; k++ {
			p.et[k*p.dp+j] = p.e[j*p.D+k]
		}
	}
}

// padded returns a copy of v with len(v) and capacity n, zeros beyond
// len(v): lg and sc are padded to dp so that exp runs on whole vectors (a
// partial vector goes to the scalar code, which costs as much as the rest).
func padded(v []float64, n int) []float64 {
	c := make([]float64, n)
	copy(c, v)
	return c[:len(v)]
}

// exp refreshes the widths sc = e^{lg}, padding included (e⁰ = 1, unused).
func (p *params) exp() {
	trig.Exp(p.sc[:p.dp], p.lg[:p.dp])
}

func (p *params) clone() *params {
	q := *p
	q.e = slices.Clone(p.e) // never modified, but a snapshot owns its arrays
	q.et = slices.Clone(p.et)
	q.ep = slices.Clone(p.ep)
	q.lg = padded(p.lg, p.dp)
	q.sc = padded(p.sc, p.dp)
	q.w = slices.Clone(p.w)
	q.b = slices.Clone(p.b)
	return &q
}

// work is the per-sample scratch space.
type work struct {
	u, sin, cos []float64 // d (x ⊙ e^{γ̃}), Dp, Dp
	f           []float64 // C scores
	q           []float64 // 2H: Σ_r g_r (cos_k w_r,D+k − sin_k w_r,k), zero-padded
	h, zero     []float64 // dp: Σ_k e_jk q_k; dp zeros
	acc         [8]float64
	// expIn, expOut: trig.Exp of one value (expIn[0]) without an
	// allocation, on a whole vector (a partial one costs 2–3× as much).
	// expIn[1:] stay 0.
	expIn, expOut [8]float64
}

func (p *params) newWork() *work {
	return &work{u: make([]float64, p.d), sin: make([]float64, p.Dp), cos: make([]float64, p.Dp),
		f: make([]float64, p.C), q: make([]float64, 2*p.H), h: make([]float64, p.dp), zero: make([]float64, p.dp)}
}

// features sets s.u = x ⊙ e^{γ̃} and s.sin, s.cos to the sines and cosines
// of the phases x·ω_k.
func (p *params) features(s *work, x []float64) {
	u, sc := s.u[:p.d], p.sc[:p.d]
	for j, v := range x[:p.d] {
		u[j] = float64(v * sc[j])
	}
	asm.SincosDot(s.sin, s.cos, p.ep, p.Dp, u)
}

// scores sets s.f[c] = w_c·φ + b_c from the features in s.
func (p *params) scores(s *work) {
	D := p.D
	for c := 0; c < p.C; c++ {
		row := p.w[c*2*D : (c+1)*2*D]
		v := vec.Dot2(row[:D], s.cos[:D], row[D:], s.sin[:D])
		s.f[c] = float64(v*p.inv) + p.b[c]
	}
}

// logistic returns the logistic loss log(1 + e^{−m}) of the margin m and
// σ(−m) = 1/(1 + e^{m}), stably for any m, from one exponential. The loss
// is only reported (Stats, Fit's Progress), but xmath.Log1p keeps even it
// the same on every architecture.
func (s *work) logistic(m float64) (loss, sg float64) {
	s.expIn[0] = -math.Abs(m)
	trig.Exp(s.expOut[:], s.expIn[:])
	e := s.expOut[0] // e^{−|m|} ∈ [0, 1]
	loss = math.Max(-m, 0) + xmath.Log1p(e)
	if m <= 0 {
		return loss, 1 / (1 + e)
	}
	return loss, e / (1 + e)
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
func (p *params) lossGrad(s *work, t float64) (loss float64, r0, r1 int, g0, g1 float64) {
	if p.C > 1 { // Crammer–Singer
		y := int(t)
		r := vec.Argmax(s.f, y)
		m := s.f[y] - s.f[r]
		switch p.loss {
		case Hinge:
			if m < 1 {
				return 1 - m, y, r, -1, 1
			}
			return 0, y, r, 0, 0
		default: // Logistic
			loss, sg := s.logistic(m)
			return loss, y, r, -sg, sg
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
		loss, sg := s.logistic(float64(t * f))
		return loss, 0, -1, -t * sg, 0
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
	return float64(r*r) / 2, 0, -1, clamp(r, maxGrad), 0
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

// The SGD step. Per sample, with the derivatives g_r = ∂ℓ/∂f_r of its rows
// r (r0, and r1 in multiclass) and the weights before the step, every row
// decays, w ← (1 − ηλ)w, and then
//
//	Δw_r = −(η√D g_r) φ̃,   Δb_r = −η g_r,
//	Δγ̃_j = −(η_γ/√D) u_j Σ_k e_jk q_k,   q_k = Σ_r g_r (cos_k w_r,D+k − sin_k w_r,k),
//
// with φ̃ = [cos, sin] = √D·φ and u = x ⊙ e^{γ̃}. Eta is in the reference's
// units (features without 1/√D), so the weight step is ηD·∂ℓ/∂w = η√D g φ̃
// and the bias, one more feature of the reference's scale, steps by η. With
// a single row, g_0 multiplies the d sums rather than the D terms of q.
// step applies one sample's changes; accumulate sums them over a mini-batch
// and apply takes their mean, with the same operations in the same order,
// so a batch of one is bit for bit a step.

// direction sets s.q[:D] to q of the rows r0 (derivative g0) and r1 (g1,
// if r1 ≥ 0) and returns the factor still to apply to it: g0 for a single
// row, else 1.
func (p *params) direction(s *work, r0, r1 int, g0, g1 float64) float64 {
	D := p.D
	sn, cs, q := s.sin[:D], s.cos[:D], s.q[:D]
	row := p.w[r0*2*D : (r0+1)*2*D]
	wc, ws := row[:D], row[D:]
	if r1 < 0 {
		for k := range q {
			q[k] = float64(cs[k]*ws[k]) - float64(sn[k]*wc[k])
		}
		return g0
	}
	for k := range q {
		q[k] = float64(g0 * (float64(cs[k]*ws[k]) - float64(sn[k]*wc[k])))
	}
	row = p.w[r1*2*D : (r1+1)*2*D]
	wc, ws = row[:D], row[D:]
	for k := range q {
		q[k] += float64(g1 * (float64(cs[k]*ws[k]) - float64(sn[k]*wc[k])))
	}
	return 1
}

// project sets s.h[j] = Σ_k e_jk q_k (j < d) from s.q.
func (p *params) project(s *work) {
	n := p.H * p.dp
	asm.DotStats(s.h, s.zero, p.et[:n], s.q[:p.H], p.et[n:], s.q[p.H:], p.dp, &s.acc)
}

// widthStep returns −Δγ̃ of the sample (in s.h[:d]) from s.q and the
// factor f that direction returned.
func (p *params) widthStep(s *work, f float64, c *Config) []float64 {
	p.project(s)
	a := float64(float64(c.EtaGamma*p.inv) * f)
	u, h := s.u[:p.d], s.h[:p.d]
	for j, v := range u {
		h[j] = float64(a * float64(v*h[j]))
	}
	return h
}

// stepScale is η√D, the weight step per unit of g φ̃.
func (p *params) stepScale(c *Config) float64 {
	return float64(float64(c.Eta*float64(p.D)) * p.inv)
}

// decayAll is the step of a sample without gradient: w ← (1 − ηλ)w.
func (p *params) decayAll(decay float64) {
	w := p.w // a local slice: a store through p.w would reload p.w
	for k, v := range w {
		w[k] = float64(decay * v)
	}
}

// stepRow is w ← (1 − ηλ)w − ag·φ̃ on one row (ag = η√D g).
func stepRow(row, cos, sin []float64, ag, decay float64) {
	D := len(cos)
	wc, ws, sin := row[:D], row[D:2*D], sin[:D]
	for k, c := range cos {
		wc[k] = float64(decay*wc[k]) - float64(ag*c)
	}
	for k, s := range sin {
		ws[k] = float64(decay*ws[k]) - float64(ag*s)
	}
}

// directionStep is direction and stepRow of a single row in one pass: q
// from the old weights, then the step. A function of its own so that the
// loop keeps its operands in registers.
func directionStep(q, row, cos, sin []float64, ag, decay float64) {
	D := len(q)
	wc, ws, cs, sn := row[:D], row[D:2*D], cos[:D], sin[:D]
	for k := range q {
		x, y, c, s := wc[k], ws[k], cs[k], sn[k]
		q[k] = float64(c*y) - float64(s*x)
		wc[k] = float64(decay*x) - float64(ag*c)
		ws[k] = float64(decay*y) - float64(ag*s)
	}
}

// stepWidths takes γ̃_j ← clamp(γ̃_j − clamp(m·G_j)) (a NaN or zero step is
// skipped) and refreshes the widths.
func (p *params) stepWidths(G []float64, m float64) {
	changed := false
	lg := p.lg
	for j, v := range G[:len(lg)] {
		step := float64(m * v)
		if step == 0 || math.IsNaN(step) {
			continue
		}
		lg[j] = clamp(lg[j]-clamp(step, maxLogStep), maxLogWidth)
		changed = true
	}
	if changed {
		p.exp()
	}
}

// step is the online SGD step on one sample whose features and scores are
// in s: rows r0 (derivative g0) and r1 (g1, if r1 ≥ 0).
func (p *params) step(s *work, r0, r1 int, g0, g1 float64, c *Config, widths bool) {
	decay := 1 - float64(c.Eta*c.Lambda)
	if g0 == 0 && g1 == 0 {
		p.decayAll(decay)
		return
	}
	D := p.D
	a := p.stepScale(c)
	f := 1.0
	if p.C == 1 && widths {
		directionStep(s.q[:D], p.w[:2*D], s.cos, s.sin, float64(a*g0), decay)
		f = g0
	} else {
		if widths {
			f = p.direction(s, r0, r1, g0, g1)
		}
		for r := 0; r < p.C; r++ {
			row := p.w[r*2*D : (r+1)*2*D]
			switch {
			case r == r0 && g0 != 0:
				stepRow(row, s.cos[:D], s.sin, float64(a*g0), decay)
			case r == r1 && g1 != 0:
				stepRow(row, s.cos[:D], s.sin, float64(a*g1), decay)
			default:
				for k, v := range row {
					row[k] = float64(decay * v)
				}
			}
		}
	}
	p.b[r0] -= float64(c.Eta * g0)
	if r1 >= 0 {
		p.b[r1] -= float64(c.Eta * g1)
	}
	if widths {
		p.stepWidths(p.widthStep(s, f, c), 1)
	}
}

// grads accumulates the changes of a mini-batch (Fit), with the signs
// flipped: Σ η√D g_r φ̃ per row, Σ η g_r per bias, Σ −Δγ̃.
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

// accumulate adds the changes of one sample (features and scores in s) to
// g: rows r0 (derivative g0) and r1 (g1, if r1 ≥ 0).
func (p *params) accumulate(g *grads, s *work, r0, r1 int, g0, g1 float64, c *Config, widths bool) {
	if g0 == 0 && g1 == 0 {
		return
	}
	g.touched = true
	if widths {
		f := p.direction(s, r0, r1, g0, g1)
		for j, v := range p.widthStep(s, f, c) {
			g.lg[j] += v
		}
	}
	D, a := p.D, p.stepScale(c)
	add := func(r int, gr float64) {
		gw, ag := g.w[r*2*D:(r+1)*2*D], float64(a*gr)
		for k, v := range s.cos[:D] {
			gw[k] += float64(ag * v)
		}
		for k, v := range s.sin[:D] {
			gw[D+k] += float64(ag * v)
		}
		g.b[r] += float64(c.Eta * gr)
	}
	add(r0, g0)
	if r1 >= 0 {
		add(r1, g1)
	}
}

// apply takes the mean step of a batch of n samples accumulated in g.
func (p *params) apply(g *grads, n int, c *Config, widths bool) {
	decay := 1 - float64(c.Eta*c.Lambda)
	if !g.touched {
		p.decayAll(decay)
		return
	}
	m := 1 / float64(n)
	w, gw := p.w, g.w[:len(p.w)]
	for k, v := range w {
		w[k] = float64(decay*v) - float64(m*gw[k])
	}
	for k, v := range g.b {
		p.b[k] -= float64(m * v)
	}
	if widths {
		p.stepWidths(g.lg, m)
	}
}
