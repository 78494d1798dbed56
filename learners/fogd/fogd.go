package fogd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners"
)

// feats is the fixed map: u (d×Dp, zero-padded to a multiple of 8 columns).
type feats struct {
	d, D, Dp int
	u        []float64 // d×D as drawn (stored in model files)
	up       []float64 // d×Dp padded copy for asm.SincosDot
	inv      float64
}

func newFeats(d, D int, u []float64) *feats {
	f := &feats{d: d, D: D, Dp: (D + 7) &^ 7, u: u, inv: 1 / math.Sqrt(float64(D))}
	f.up = make([]float64, d*f.Dp)
	for j := 0; j < d; j++ {
		copy(f.up[j*f.Dp:], u[j*D:(j+1)*D])
	}
	return f
}

type work struct{ sin, cos []float64 }

func (f *feats) newWork() *work {
	return &work{sin: make([]float64, f.Dp), cos: make([]float64, f.Dp)}
}

// score is wᵀz(x) with the features left in s.
func (f *feats) score(s *work, w, x []float64) float64 {
	asm.SincosDot(s.sin, s.cos, f.up, f.Dp, x)
	D := f.D
	c, sn, a, b := s.cos[:D], s.sin[:D], w[:D], w[D:2*D]
	// Eight chains (four per half, enough to hide the add latency)
	// combined in a fixed order, each product rounded on its own: the same
	// bits on every architecture. Not math.FMA: under GOAMD64=v1 (the
	// default) each call tests the CPU and keeps a fallback call, which
	// spills the accumulators on every iteration.
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	k := 0
	for ; k+4 <= D; k += 4 {
		s0 += float64(a[k] * c[k])
		s1 += float64(a[k+1] * c[k+1])
		s2 += float64(a[k+2] * c[k+2])
		s3 += float64(a[k+3] * c[k+3])
		s4 += float64(b[k] * sn[k])
		s5 += float64(b[k+1] * sn[k+1])
		s6 += float64(b[k+2] * sn[k+2])
		s7 += float64(b[k+3] * sn[k+3])
	}
	for ; k < D; k++ {
		s0 += float64(a[k] * c[k])
		s4 += float64(b[k] * sn[k])
	}
	return float64((((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))) * f.inv)
}

// Learner is the online FOGD learner (single writer; hand readers a
// Snapshot).
type Learner struct {
	cfg   Config
	f     *feats
	w     []float64 // current weights (2D)
	sum   []float64 // Σ_t w_t after each step
	steps int
	s     *work
	stats Stats
}

// Outcome is what one Update saw before its step.
type Outcome = learners.Outcome

// Stats are a Learner's online statistics (predictions made before the
// step on each sample).
type Stats = learners.Stats

// NewLearner returns a learner for rows of d inputs.
func NewLearner(d int, cfg Config) (*Learner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if d <= 0 {
		return nil, fmt.Errorf("fogd: NewLearner: %d inputs, want ≥ 1", d)
	}
	c := cfg.resolve(d)
	if d > math.MaxInt/c.Features/16 {
		return nil, fmt.Errorf("fogd: NewLearner: %d inputs × %d features do not fit in memory", d, c.Features)
	}
	// xrand, not rand.NormFloat64, whose ziggurat tail calls math.Log and
	// math.Exp: their bits differ between amd64 and arm64.
	u := make([]float64, d*c.Features)
	xrand.FillNormal(rand.New(rand.NewPCG(c.Seed, 0x666f6764)), u) // "fogd"
	sd := math.Sqrt(2 * c.Gamma)
	for i, v := range u {
		u[i] = sd * v
	}
	f := newFeats(d, c.Features, u)
	return &Learner{cfg: c, f: f, w: make([]float64, 2*c.Features), sum: make([]float64, 2*c.Features), s: f.newWork()}, nil
}

// Config returns the resolved configuration.
func (l *Learner) Config() Config { return l.cfg }

// Stats returns the online statistics so far.
func (l *Learner) Stats() Stats { return l.stats }

// Update predicts x with the current weights, records the outcome and
// takes the FOGD step. y is Labels.Neg or Labels.Pos (−1/+1 by default) or
// a finite target. Bad input is an error and changes nothing. It allocates
// nothing.
func (l *Learner) Update(x []float64, y float64) (Outcome, error) {
	if err := learners.CheckRow(x, l.f.d); err != nil {
		return Outcome{}, fmt.Errorf("fogd: Update: %w", err)
	}
	if !xmath.Finite(y) {
		return Outcome{}, fmt.Errorf("fogd: Update: y is %v: targets must be finite", y)
	}
	t := y
	if l.cfg.Task == learners.Binary {
		var err error
		if t, err = l.cfg.Labels.Encode(y); err != nil {
			return Outcome{}, fmt.Errorf("fogd: Update: %w", err)
		}
	}
	o, err := l.step(x, t)
	if err != nil {
		return Outcome{}, fmt.Errorf("fogd: Update: %w", err)
	}
	l.stats.Record(o, l.cfg.Task, y)
	return o, nil
}

func (l *Learner) step(x []float64, t float64) (Outcome, error) {
	f := l.f.score(l.s, l.w, x)
	if !xmath.Finite(f) {
		return Outcome{}, errors.New("the score is not finite (inputs too large); no step taken")
	}
	var o Outcome
	var g float64 // the step is w ← w − η g z
	if l.cfg.Task == learners.Binary {
		o.Prediction = l.cfg.Labels.Decode(f)
		o.Mistake = (f >= 0) != (t > 0)
		if m := float64(t * f); m < 1 {
			o.Loss, g = 1-m, -t
		}
	} else {
		o.Prediction = f
		r := f - t
		switch l.cfg.Loss {
		case EpsInsensitive:
			if math.Abs(r) > Epsilon {
				o.Loss = math.Abs(r) - Epsilon
				g = math.Copysign(1, r)
			}
		default:
			o.Loss = float64(r*r) / 2
			g = max(-MaxGrad, min(MaxGrad, r))
		}
	}
	D := l.f.D
	w, sum := l.w[:2*D], l.sum[:2*D]
	if g != 0 {
		// The step and the running sum in one pass over the weights.
		a := float64(float64(l.cfg.Eta*g) * l.f.inv)
		wc, ws, sc, ss := w[:D], w[D:], sum[:D], sum[D:]
		for k, c := range l.s.cos[:D] {
			v := wc[k] - float64(a*c)
			wc[k] = v
			sc[k] += v
		}
		for k, s := range l.s.sin[:D] {
			v := ws[k] - float64(a*s)
			ws[k] = v
			ss[k] += v
		}
	} else {
		for k, v := range w {
			sum[k] += v
		}
	}
	l.steps++
	return o, nil
}

// Predict returns the prediction of the current (not averaged) weights.
// It panics if len(x) is wrong; it allocates nothing.
func (l *Learner) Predict(x []float64) float64 {
	if len(x) != l.f.d {
		panic(fmt.Sprintf("fogd: Learner.Predict: len(x) = %d, the learner takes %d inputs", len(x), l.f.d))
	}
	f := l.f.score(l.s, l.w, x)
	if l.cfg.Task == learners.Binary {
		return l.cfg.Labels.Decode(f)
	}
	return f
}

// Snapshot returns an immutable model with the averaged weights
// w̄ = (1/T) Σ w_t (the current weights before the first step).
func (l *Learner) Snapshot() *Model {
	d := l.f.d
	mean, scale := make([]float64, d), make([]float64, d)
	for j := range scale {
		scale[j] = 1
	}
	return l.snapshot(l.cfg, mean, scale)
}

// snapshot is Snapshot with the configuration (labels) and the
// standardisation Fit applied.
func (l *Learner) snapshot(cfg Config, mean, scale []float64) *Model {
	w := slices.Clone(l.w)
	if l.steps > 0 {
		for k, v := range l.sum {
			w[k] = v / float64(l.steps)
		}
	}
	b := &body{cfg: cfg, f: newFeats(l.f.d, l.f.D, slices.Clone(l.f.u)), w: w}
	m := new(Model)
	learners.Build(&m.Base, learners.Common{Task: cfg.Task, Labels: cfg.Labels, Mean: mean, Scale: scale}, b)
	return m
}

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each), "u" (d×D frequencies,
// row-major), "w" (2D averaged weights: cos part, then sin part).
const modelVersion = 1

// Model is a FOGD model: f(x) = w̄ᵀz((x − mean)/scale). Its methods are
// those of learners.Base: it is immutable and safe for concurrent use;
// Predict, Score and the batch forms allocate nothing. Probability is NaN:
// the hinge loss estimates only the sign. A Model must not be copied.
type Model struct {
	learners.Base[body, *body]
}

// Config returns the resolved configuration.
func (m *Model) Config() Config { return m.Body().cfg }

// Load decodes a model file; see learners.Base.UnmarshalBinary for its errors.
func Load(data []byte) (*Model, error) { return learners.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	cfg Config
	f   *feats
	w   []float64
}

func (*body) Spec() learners.Spec {
	return learners.Spec{Name: Name, Methods: []string{Name}, Version: modelVersion}
}

func (b *body) NewWork() any                     { return b.f.newWork() }
func (b *body) Score(z []float64, w any) float64 { return b.f.score(w.(*work), b.w, z) }

func (b *body) Encode(e *learners.Encoder) error {
	e.Array("u", b.f.u)
	e.Array("w", b.w)
	return e.Config(b.cfg)
}

func (b *body) Decode(dec *learners.Decoder) error {
	var cfg Config
	if err := dec.ValidConfig(&cfg); err != nil {
		return err
	}
	d, D := dec.Inputs, cfg.Features
	switch {
	case cfg.Features == 0 || cfg.Gamma == 0 || cfg.Eta == 0 || cfg.Epochs == 0 || cfg.Loss == "":
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != dec.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, dec.Task)
	case d > math.MaxInt/D/2:
		return fmt.Errorf("%d inputs × %d features overflow", d, D)
	}
	u, w := dec.Array("u", d*D), dec.Array("w", 2*D)
	if err := dec.Err(); err != nil {
		return err
	}
	if cfg.Task == learners.Binary {
		cfg.Labels = dec.Labels
	}
	*b = body{cfg: cfg, f: newFeats(d, D, u), w: w}
	return nil
}

func init() {
	learners.Define(Name, "Fourier online gradient descent: fixed random Fourier features, hinge-gated online steps, averaged weights (Lu et al. 2016)",
		func() *Config { return new(Config) }, Fit, Load)
}

// Fit standardises X with its statistics and runs Epochs passes of the
// online rule over seeded permutations; the model has the weights averaged
// over every step. Binary labels may be any two values (smaller → −1).
// Errors: cancelled ctx, invalid cfg, bad data, wrong number of classes,
// a Progress error (wrapped).
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	start := time.Now()
	p, err := learners.Prepare(ctx, Name, cfg, cfg.Task, X, y)
	if err != nil {
		return nil, err
	}
	n, d, t, xs := p.N, p.D, p.Targets, p.Z
	c := cfg
	c.Labels = p.Labels
	l, err := NewLearner(d, c)
	if err != nil {
		return nil, err
	}
	l.cfg.Labels = learners.Labels{Neg: -1, Pos: 1}      // t is ±1
	r := rand.New(rand.NewPCG(l.cfg.Seed, 0x666f676466)) // "fogdf"
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for ep := 1; ep <= l.cfg.Epochs; ep++ {
		r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		var loss float64
		for _, i := range perm {
			o, err := l.step(xs[i*d:(i+1)*d], t[i])
			if err != nil {
				return nil, fmt.Errorf("fogd: row %d: %w", i, err)
			}
			loss += o.Loss
		}
		e := learners.Event{Method: Name, Round: ep, Rounds: l.cfg.Epochs, Loss: loss / float64(n), Elapsed: time.Since(start)}
		if err := cfg.Progress.Report(e); err != nil {
			return nil, fmt.Errorf("fogd: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("fogd: %w", err)
		}
	}
	out := l.cfg
	out.Labels = c.Labels // the original labels (zero for regression), not ±1
	return l.snapshot(out, p.Mean, p.Scale), nil
}
