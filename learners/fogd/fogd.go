package fogd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/prep"
)

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

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
type Outcome struct {
	Prediction float64 // label or value predicted with the current weights
	Mistake    bool    // wrong label (classification)
	Loss       float64 // hinge, squared (½r²) or ε-insensitive loss
}

// Stats are a Learner's online statistics (predictions made before the
// step on each sample).
type Stats struct {
	N        int
	Mistakes int
	SSE      float64
	LossSum  float64
}

// MistakeRate is Mistakes/N.
func (s Stats) MistakeRate() float64 { return float64(s.Mistakes) / float64(s.N) }

// RMSE is √(SSE/N).
func (s Stats) RMSE() float64 { return math.Sqrt(s.SSE / float64(s.N)) }

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

func checkRow(x []float64, d int) error {
	if len(x) != d {
		return fmt.Errorf("len(x) = %d, the learner takes %d inputs", len(x), d)
	}
	for j, v := range x {
		if !finite(v) {
			return fmt.Errorf("x[%d] is %v: inputs must be finite", j, v)
		}
	}
	return nil
}

// Update predicts x with the current weights, records the outcome and
// takes the FOGD step. y is Labels.Neg or Labels.Pos (−1/+1 by default) or
// a finite target. Bad input is an error and changes nothing. It allocates
// nothing.
func (l *Learner) Update(x []float64, y float64) (Outcome, error) {
	if err := checkRow(x, l.f.d); err != nil {
		return Outcome{}, fmt.Errorf("fogd: Update: %w", err)
	}
	if !finite(y) {
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
	l.stats.N++
	l.stats.LossSum += o.Loss
	if o.Mistake {
		l.stats.Mistakes++
	}
	if l.cfg.Task == learners.Regression {
		r := o.Prediction - y
		l.stats.SSE += float64(r * r)
	}
	return o, nil
}

func (l *Learner) step(x []float64, t float64) (Outcome, error) {
	f := l.f.score(l.s, l.w, x)
	if !finite(f) {
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
	w := slices.Clone(l.w)
	if l.steps > 0 {
		for k, v := range l.sum {
			w[k] = v / float64(l.steps)
		}
	}
	d := l.f.d
	m := &Model{cfg: l.cfg, f: newFeats(d, l.f.D, slices.Clone(l.f.u)), w: w, mean: make([]float64, d), scale: make([]float64, d)}
	for j := range m.scale {
		m.scale[j] = 1
	}
	return m
}

// Model is a FOGD model: f(x) = w̄ᵀz((x − mean)/scale). It is immutable and
// safe for concurrent use; Predict, Score and PredictBatch allocate
// nothing. A Model must not be copied.
type Model struct {
	cfg         Config
	f           *feats
	w           []float64
	mean, scale []float64
	scratch     sync.Pool
}

type modelScratch struct {
	xs []float64
	w  *work
}

var _ learners.Model = (*Model)(nil)

// NumInputs is d.
func (m *Model) NumInputs() int { return m.f.d }

// Task is the model's task.
func (m *Model) Task() learners.Task { return m.cfg.Task }

// Config returns the resolved configuration.
func (m *Model) Config() Config { return m.cfg }

// Labels returns the class labels of a binary model.
func (m *Model) Labels() learners.Labels { return m.cfg.Labels }

// Score is the raw score w̄ᵀz(x). It panics if len(x) != NumInputs().
func (m *Model) Score(x []float64) float64 {
	if len(x) != m.f.d {
		panic(fmt.Sprintf("fogd: Score/Predict: len(x) = %d, the model takes %d inputs", len(x), m.f.d))
	}
	s := m.get()
	v := m.score(s, x)
	m.scratch.Put(s)
	return v
}

// Predict returns the label (binary) or value (regression).
func (m *Model) Predict(x []float64) float64 { return m.output(m.Score(x)) }

// PredictBatch writes Predict of every row of X into dst; shape errors are
// returned.
func (m *Model) PredictBatch(dst []float64, X featmap.Matrix) error {
	if err := learners.CheckShape(X, m.f.d); err != nil {
		return fmt.Errorf("fogd: PredictBatch: %w", err)
	}
	if len(dst) != X.Rows {
		return fmt.Errorf("fogd: PredictBatch: len(dst) = %d, X has %d rows", len(dst), X.Rows)
	}
	s := m.get()
	for i := range dst {
		dst[i] = m.output(m.score(s, X.Row(i)))
	}
	m.scratch.Put(s)
	return nil
}

func (m *Model) output(f float64) float64 {
	if m.cfg.Task == learners.Binary {
		return m.cfg.Labels.Decode(f)
	}
	return f
}

func (m *Model) score(s *modelScratch, x []float64) float64 {
	for k, v := range x {
		s.xs[k] = (v - m.mean[k]) / m.scale[k]
	}
	return m.f.score(s.w, m.w, s.xs)
}

func (m *Model) get() *modelScratch {
	if s, ok := m.scratch.Get().(*modelScratch); ok {
		return s
	}
	return &modelScratch{xs: make([]float64, m.f.d), w: m.f.newWork()}
}

// Fit standardises X with its statistics and runs Epochs passes of the
// online rule over seeded permutations; the model has the weights averaged
// over every step. Binary labels may be any two values (smaller → −1).
// Errors: cancelled ctx, invalid cfg, bad data, wrong number of classes,
// a Progress error (wrapped).
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fogd: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := learners.CheckData(X, y); err != nil {
		return nil, fmt.Errorf("fogd: %w", err)
	}
	n, d := X.Rows, X.Cols
	c := cfg
	t := y
	if c.Task == learners.Binary {
		var err error
		if t, c.Labels, err = learners.BinaryLabels(y); err != nil {
			return nil, fmt.Errorf("fogd: %w", err)
		}
	}
	l, err := NewLearner(d, c)
	if err != nil {
		return nil, err
	}
	l.cfg.Labels = learners.Labels{Neg: -1, Pos: 1} // t is ±1
	scaler, xs, err := prep.Standardize(X)
	if err != nil {
		return nil, fmt.Errorf("fogd: %w", err)
	}
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
	m := l.Snapshot()
	m.cfg.Labels = c.Labels
	if m.cfg.Task == learners.Regression {
		m.cfg.Labels = learners.Labels{}
	}
	m.mean, m.scale = scaler.Mean, scaler.Scale
	return m, nil
}
