package fogd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/internal/xrand"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/ogd"
	"github.com/rfkit/rfkit/learners/internal/vec"
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

type work struct{ sin, cos, f []float64 }

func (f *feats) newWork() *work {
	return &work{sin: make([]float64, f.Dp), cos: make([]float64, f.Dp)}
}

// newWorkK is newWork with room for K class scores.
func (f *feats) newWorkK(K int) *work {
	s := f.newWork()
	s.f = make([]float64, K)
	return s
}

// score is wᵀz(x) with the features left in s.
func (f *feats) score(s *work, w, x []float64) float64 {
	asm.SincosDot(s.sin, s.cos, f.up, f.Dp, x)
	return f.dot(s, w)
}

// scores writes the K class scores w_kᵀz(x) (w K rows of 2D) into s.f,
// the features left in s.
func (f *feats) scores(s *work, w, x []float64) {
	asm.SincosDot(s.sin, s.cos, f.up, f.Dp, x)
	D := f.D
	for k := range s.f {
		s.f[k] = f.dot(s, w[k*2*D:(k+1)*2*D])
	}
}

// dot is wᵀz for the features in s: vec.Dot2 of the cosine and sine
// halves (each product rounded on its own, the same bits everywhere),
// times the feature scale.
func (f *feats) dot(s *work, w []float64) float64 {
	D := f.D
	return float64(vec.Dot2(w[:D], s.cos[:D], w[D:2*D], s.sin[:D]) * f.inv)
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
	kit.OnlineBase
	// classes are the labels of a multiclass learner (nil otherwise): w
	// and sum then hold one row of 2D per class.
	classes []float64
}

// rows is the number of weight rows: the classes of a multiclass model,
// else 1.
func rows(c Config) int { return max(1, len(c.Classes)) }

// NewLearner returns a learner for rows of d inputs, its frequencies drawn
// from cfg.Seed and its weights zero.
func NewLearner(d int, cfg Config) (*Learner, error) {
	c, err := kit.StartLearner("fogd", d, cfg, Config.resolve, func(c Config) int { return c.Features })
	if err != nil {
		return nil, err
	}
	// xrand, not rand.NormFloat64, whose ziggurat tail calls math.Log and
	// math.Exp: their bits differ between amd64 and arm64.
	u := make([]float64, d*c.Features)
	xrand.FillNormal(rand.New(rand.NewPCG(c.Seed, 0x666f6764)), u) // "fogd"
	sd := math.Sqrt(2 * c.Gamma)
	for i, v := range u {
		u[i] = sd * v
	}
	if c.Task == learners.Multiclass && len(c.Classes) == 0 {
		return nil, errors.New("fogd: NewLearner: the multiclass task needs Classes (three or more labels)")
	}
	f := newFeats(d, c.Features, u)
	C := rows(c)
	if C > math.MaxInt/c.Features/16 {
		return nil, fmt.Errorf("fogd: NewLearner: %d classes × %d features do not fit in memory", C, c.Features)
	}
	return &Learner{cfg: c, f: f, w: make([]float64, C*2*c.Features), sum: make([]float64, C*2*c.Features), s: f.newWorkK(C),
		classes: c.Classes, OnlineBase: kit.NewOnlineBase("fogd", d)}, nil
}

// Resume returns a Learner that continues from m, a Model from Fit,
// Snapshot or Load (file version 2): the same frequencies, current and
// summed weights, step count, labels, configuration and input
// standardisation (applied to every row of Update and Predict), so that its
// Updates take exactly the steps the Learner that made m would have taken
// next and its Snapshots average over all of them. Its Stats start at
// zero. A version 1 model holds only the averaged weights and is refused.
func Resume(m *Model) (*Learner, error) {
	return kit.ResumeFrom(Name, m, resumed)
}

// resumed is the Learner of cfg.Resume with the learning settings of cfg
// (see Config.Resume), for rows of d inputs. cfg is valid and its model
// non-empty; the caller (kit.ResumeFrom or ResumeFit) sets its
// standardisation.
func resumed(cfg Config, d int) (*Learner, error) {
	m := cfg.Resume
	b, mc := m.Body(), m.Config()
	err := cmp.Or(ogd.CheckResumable(Name, b.wt != nil, b.version),
		kit.CheckResume(Name, d, m.NumInputs(), cfg.Task, mc.Task),
		kit.ResumeSetting(Name, "Features", cfg.Features, mc.Features),
		kit.ResumeSetting(Name, "Gamma", cfg.Gamma, mc.Gamma),
		kit.ResumeSetting(Name, "Loss", cfg.Loss, mc.Loss),
		kit.ResumeSetting(Name, "Labels", cfg.Labels, mc.Labels))
	if err == nil && len(cfg.Classes) > 0 && !slices.Equal(cfg.Classes, mc.Classes) {
		err = fmt.Errorf("fogd: Resume: Config.Classes = %v, the model's are %v", cfg.Classes, mc.Classes)
	}
	if err != nil {
		return nil, err
	}
	c := cfg
	c.Features, c.Gamma, c.Loss, c.Labels, c.Classes = mc.Features, mc.Gamma, mc.Loss, mc.Labels, mc.Classes
	c = c.resolve(d)
	// The frequencies are read-only: the Learner shares them with m.
	return &Learner{cfg: c, f: b.f, w: slices.Clone(b.wt), sum: slices.Clone(b.wsum), steps: b.steps, s: b.f.newWorkK(rows(c)),
		classes: c.Classes, OnlineBase: kit.NewOnlineBase("fogd", d)}, nil
}

// Config returns the resolved configuration.
func (l *Learner) Config() Config { return l.cfg }

// Update predicts x (standardised first if the Learner has a
// standardisation) with the current weights, records the outcome and
// takes the FOGD step. y is Labels.Neg or Labels.Pos (−1/+1 by default) or
// a finite target. Bad input is an error and changes nothing. It allocates
// nothing.
func (l *Learner) Update(x []float64, y float64) (learners.Outcome, error) {
	return l.UpdateWith(x, y, l.cfg.Task, l.target, l.step)
}

// target maps a label to the internal target: ±1 (binary), the class
// index (multiclass) or y itself (regression).
func (l *Learner) target(y float64) (float64, error) {
	switch l.cfg.Task {
	case learners.Binary:
		return kit.EncodeLabel(l.cfg.Labels, y)
	case learners.Multiclass:
		k, ok := slices.BinarySearch(l.classes, y)
		if !ok {
			return 0, fmt.Errorf("label %v is not one of the %d classes [%v … %v]", y, len(l.classes), l.classes[0], l.classes[len(l.classes)-1])
		}
		return float64(k), nil
	}
	return y, nil
}

func (l *Learner) step(x []float64, t float64) (learners.Outcome, error) {
	if l.classes != nil {
		return l.stepMulti(x, int(t))
	}
	f := l.f.score(l.s, l.w, x)
	if !xmath.Finite(f) {
		return learners.Outcome{}, errors.New("the score is not finite (inputs too large); no step taken")
	}
	var o learners.Outcome
	var g float64 // the step is w ← w − η g z
	if l.cfg.Task == learners.Binary {
		o.Prediction = kit.DecodeLabel(l.cfg.Labels, f)
		o.Mistake = (f >= 0) != (t > 0)
	} else {
		o.Prediction = f
	}
	o.Loss, g = ogd.Grad(l.cfg.Loss, f, t)
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
// It panics if len(x) is wrong; it allocates nothing. A NaN input is a
// missing value, imputed as a Model does (0 after the standardisation).
func (l *Learner) Predict(x []float64) float64 {
	l.CheckPredict(x)
	if l.classes != nil {
		l.f.scores(l.s, l.w, l.Input(x))
		return l.classes[vec.Argmax(l.s.f, -1)]
	}
	f := l.f.score(l.s, l.w, l.Input(x))
	if l.cfg.Task == learners.Binary {
		return kit.DecodeLabel(l.cfg.Labels, f)
	}
	return f
}

// Snapshot returns an immutable model with the averaged weights
// w̄ = (1/T) Σ w_t (the current weights before the first step), the
// Learner's standardisation (mean 0 and scale 1 without one) and its whole
// state: Resume continues from it.
func (l *Learner) Snapshot() *Model {
	mean, scale := l.SnapshotStandardization()
	w := ogd.Averaged(l.w, l.sum, l.steps)
	version := stateVersion
	if l.classes != nil {
		version = multiclassVersion
	}
	b := &body{version: version, cfg: l.cfg, f: newFeats(l.f.d, l.f.D, slices.Clone(l.f.u)), w: w,
		wt: slices.Clone(l.w), wsum: slices.Clone(l.sum), steps: l.steps}
	return kit.New[Model](learners.Common{Task: l.cfg.Task, Labels: l.cfg.Labels, Classes: l.cfg.Classes, Mean: mean, Scale: scale}, b)
}

// modelVersion is the version of the arrays written in the header.
//
// Version 1 arrays: "mean", "scale" (d each), "u" (d×D frequencies,
// row-major), "w" (2D averaged weights: cos part, then sin part).
//
// Version 2 adds the Learner's state, so that Resume continues exactly:
// "wt" (2D current weights w_T), "wsum" (2D running sum Σ_t w_t), and the
// header scalar "steps" (T). "w" is still the averaged weights the model
// predicts with: wsum/T, or wt when T = 0 (checked on load). A model read
// from a version 1 file keeps version 1 and re-saves to the same bytes.
//
// Version 3 is a multiclass model (binary and regression models are still
// written as version 2): "w", "wt" and "wsum" hold K rows of 2D, one per
// class, and the config the classes; the header task is "multiclass" and
// its labels the classes.
const modelVersion = 3

// The versions a new model writes: stateVersion for binary and
// regression, multiclassVersion for multiclass.
const (
	stateVersion      = 2
	multiclassVersion = 3
)

//go:generate go run ../../internal/tools/modelmethods

// Model is a FOGD model: f(x) = w̄ᵀz((x − mean)/scale). Probability is
// NaN: the hinge loss estimates only the sign. Training on NaN is an
// error. Obtain one from Fit, Learner.Snapshot or Load; Resume (or Fit
// with Config.Resume) continues learning from one of file version 2.
// It is immutable and safe for concurrent use; Predict and Score allocate
// nothing; a NaN input is a missing value (see Predict); a Model must not
// be copied.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	version int // of the file it was read from (0 for a zero body)
	cfg     Config
	f       *feats
	w       []float64 // averaged weights, the model's
	// The Learner's state (version 2; nil for version 1): current
	// weights, their running sum, the number of steps.
	wt, wsum []float64
	steps    int
}

// Spec gives the file version this body writes: the one it was read from,
// so that old files re-save to their own bytes; a new model (and the zero
// body, whose Spec bounds what Load reads) has the current one.
func (b *body) Spec() kit.Spec { return ogd.Spec(Name, b.version, modelVersion) }

func (b *body) NewWork() any { return b.f.newWorkK(rows(b.cfg)) }

// Score is w̄ᵀz, or for a multiclass model the margin of the best class
// over the runner-up.
func (b *body) Score(z []float64, w any) float64 {
	s := w.(*work)
	if b.cfg.Classes == nil {
		return b.f.score(s, b.w, z)
	}
	b.f.scores(s, b.w, z)
	k := vec.Argmax(s.f, -1)
	return s.f[k] - s.f[vec.Argmax(s.f, k)]
}

// Scores writes the class scores of a multiclass model
// (kit.MultiScorer).
func (b *body) Scores(dst, z []float64, w any) {
	s := w.(*work)
	b.f.scores(s, b.w, z)
	copy(dst, s.f)
}

func (b *body) Configuration() kit.Validator { return &b.cfg }

func (b *body) Encode(e *kit.Encoder) error {
	e.Array("u", b.f.u)
	e.Array("w", b.w)
	if b.version >= 2 {
		ogd.WriteState(e, b.wt, b.wsum, b.steps)
	}
	return nil
}

func (b *body) Decode(dec *kit.Decoder) error {
	cfg := b.cfg
	d, D := dec.Inputs, cfg.Features
	switch {
	case cfg.Features == 0 || cfg.Gamma == 0 || cfg.Eta == 0 || cfg.Epochs == 0 || cfg.Loss == "":
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case cfg.Task != dec.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, dec.Task)
	case d > math.MaxInt/D/2:
		return fmt.Errorf("%d inputs × %d features overflow", d, D)
	case (dec.Task == learners.Multiclass) != (dec.Version == multiclassVersion):
		return fmt.Errorf("a %v model of version %d (multiclass models are version %d, the others older)", dec.Task, dec.Version, multiclassVersion)
	case !slices.Equal(cfg.Classes, dec.Classes):
		return fmt.Errorf("config classes %v, header classes %v", cfg.Classes, dec.Classes)
	}
	C := rows(cfg)
	if C > math.MaxInt/D/2 {
		return fmt.Errorf("%d classes × %d features overflow", C, D)
	}
	u, w := dec.Array("u", d*D), dec.Array("w", C*2*D)
	if err := dec.Err(); err != nil {
		return err
	}
	wt, wsum, n, err := ogd.ReadState(dec, "w", w, C*2*D)
	if err != nil {
		return err
	}
	if cfg.Task == learners.Binary {
		cfg.Labels = dec.Labels
	}
	*b = body{version: dec.Version, cfg: cfg, f: newFeats(d, D, u), w: w, wt: wt, wsum: wsum, steps: n}
	return nil
}

func init() {
	kit.Define(Name, "Fourier online gradient descent: fixed random Fourier features, hinge-gated online steps, averaged weights (Lu et al. 2016)", []learners.Task{learners.Binary, learners.Multiclass, learners.Regression},
		func() *Config { return new(Config) }, Fit, Load)
}

// Fit standardises X with its statistics (unless Standardize is Disabled)
// and runs Epochs passes of the online rule over seeded permutations (in
// row order if Shuffle is Disabled); the model has the weights averaged
// over every step. Binary labels may be any two values (smaller → −1). With
// cfg.Resume, Fit continues from that model's state, labels and
// standardisation (see Config.Resume): with Shuffle, Standardize, Calibrate and Search Disabled and one epoch, Fit on the first rows then Fit with Resume on the
// rest gives the same model bytes as Fit on all the rows.
// Errors: cancelled ctx, invalid cfg, bad data, wrong number of classes, a
// Resume model that disagrees with cfg or X or holds no state (version 1),
// a label that is not the model's, a Progress error (wrapped).
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// γ × {1, ¼, 4} and η × {1, ¼, 4}, each when 0 (up to 9 candidates; none
// with Resume) on a held-out half of the rows and fits the best on every
// row; a classifier's probabilities are calibrated on the same half unless
// Calibrate is Disabled. A classifier's candidates run twice the epochs
// on their half (ogd.HeldOutEpochs), so that they take as many steps as
// the fit on every row and the calibration fitted on their scores fits the
// final model. Cost: one fit on every row plus, per candidate, one on half
// the rows (regression: about 1 + candidates/2 fits) or twice the epochs
// on half the rows (a classifier: about 1 + candidates fits), each of
// Epochs passes (a classifier: 3 by default). The online Learner (one
// pass, row by row) searches and calibrates nothing.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	if cfg.Epochs == 0 && cfg.Resume == nil && (cfg.Task == learners.Binary || cfg.Task == learners.Multiclass) {
		cfg.Epochs = defaultClassifyEpochs
	}
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, Name, cfg.Task, X, y, nil, cfg, sub, candidates(cfg, X.Cols), kit.On(cfg.Calibrate, true) && cfg.Resume == nil, cfg.Seed,
		func(ctx context.Context, Xs featmap.Matrix, y, _ []float64, c Config) (*Model, error) {
			// A classifier's held-out fits take the steps of the fit on
			// every row, so that the calibration fitted on their scores
			// fits the final model (ogd.HeldOutEpochs).
			c.Epochs = ogd.HeldOutEpochs(c.Epochs, Xs.Rows, X.Rows, c.Resume == nil && (c.Task == learners.Binary || c.Task == learners.Multiclass))
			return fit(ctx, Xs, y, c)
		})
}

// fit is Fit without the calibration.
func fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	rounds := kit.NewRounds(ctx, cfg.Progress, Name, Name, 0)
	if err := kit.CheckFit(ctx, "fogd", cfg, X, y); err != nil {
		return nil, err
	}
	l, xs, t, err := fitLearner(cfg, X, y)
	if err != nil {
		return nil, err
	}
	const stream = 0x666f676466 // "fogdf"
	if err := l.FitSteps(rounds, l.cfg.Seed, stream, xs, t, l.cfg.Epochs, kit.On(l.cfg.Shuffle, true), l.step); err != nil {
		return nil, err
	}
	return l.Snapshot(), nil
}

// fitLearner returns Fit's Learner, new or resumed, with its labels and
// standardisation set, the rows of X (checked) as it learns them
// (OnlineBase.FitRows; always with the model's statistics when resuming),
// and the targets (±1 for binary).
func fitLearner(cfg Config, X featmap.Matrix, y []float64) (*Learner, []float64, []float64, error) {
	var l *Learner
	var err error
	t := y
	if cfg.Resume != nil {
		if l, err = kit.ResumeFit(Name, X, cfg, cfg.Resume, resumed); err != nil {
			return nil, nil, nil, err
		}
	} else {
		c := cfg
		switch {
		case c.Task == learners.Binary:
			if t, c.Labels, err = learners.BinaryLabels(y); err != nil {
				return nil, nil, nil, fmt.Errorf("fogd: %w", err)
			}
		case c.Task == learners.Multiclass && len(c.Classes) == 0:
			if t, c.Classes, err = kit.ClassLabels(y); err != nil {
				return nil, nil, nil, fmt.Errorf("fogd: %w", err)
			}
		}
		if l, err = NewLearner(X.Cols, c); err != nil {
			return nil, nil, nil, err
		}
	}
	xs, err := l.FitRows(X, cfg.Resume == nil && kit.On(cfg.Standardize, true))
	if err != nil {
		return nil, nil, nil, err
	}
	// A resumed model's labels or given classes: map y onto them.
	if (l.cfg.Task == learners.Binary || l.cfg.Task == learners.Multiclass) && (cfg.Resume != nil || len(cfg.Classes) > 0) {
		if t, err = kit.Targets(Name, y, l.target); err != nil {
			return nil, nil, nil, err
		}
	}
	return l, xs, t, nil
}

// Average returns the model whose current weights are the means of those
// of models (summed in argument order, divided by their number), and whose
// averaged weights are the step-weighted mean Σ wsum_i / Σ steps_i of
// theirs, held as a running sum over the shards' mean step count (rounded)
// so that Resume continues from it: the mixing step of iterative parameter
// mixing, where shards run SGD from a common model and their results are
// averaged. One model is returned with its own bits. The models must be of
// file version 2 or later and share their inputs, task, labels, classes,
// loss, frequencies and standardisation (Snapshots of Learners resumed
// from one model do); the result has the first model's configuration.
func Average(models ...*Model) (*Model, error) {
	if len(models) == 0 {
		return nil, errors.New("fogd: Average: no models")
	}
	for i, m := range models {
		switch {
		case m == nil || m.Body() == nil:
			return nil, fmt.Errorf("fogd: Average: model %d is empty", i)
		case m.Body().wt == nil:
			return nil, fmt.Errorf("fogd: Average: model %d is of version %d, which holds no learner state", i, m.Body().version)
		}
	}
	m0, b0 := models[0], models[0].Body()
	mean0, scale0 := m0.Standardization()
	wt, wsum, steps := slices.Clone(b0.wt), slices.Clone(b0.wsum), b0.steps
	for i, m := range models[1:] {
		b := m.Body()
		mean, scale := m.Standardization()
		switch {
		case m.NumInputs() != m0.NumInputs() || len(b.wt) != len(wt) || b.cfg.Task != b0.cfg.Task || b.cfg.Loss != b0.cfg.Loss ||
			b.cfg.Labels != b0.cfg.Labels || !slices.Equal(b.cfg.Classes, b0.cfg.Classes):
			return nil, fmt.Errorf("fogd: Average: model %d has another shape, task, labels or loss than model 0", i+1)
		case !slices.Equal(b.f.u, b0.f.u):
			return nil, fmt.Errorf("fogd: Average: model %d has other random frequencies than model 0", i+1)
		case !slices.Equal(mean, mean0) || !slices.Equal(scale, scale0):
			return nil, fmt.Errorf("fogd: Average: model %d has another standardisation than model 0", i+1)
		case int64(b.steps) > ogd.MaxSteps-int64(steps):
			return nil, errors.New("fogd: Average: the step counts overflow")
		}
		for k := range wt {
			wt[k] += b.wt[k]
			wsum[k] += b.wsum[k]
		}
		steps += b.steps
	}
	if n := len(models); n > 1 {
		total := steps
		steps = (total + n/2) / n
		f := 0.0
		if total > 0 {
			f = float64(steps) / float64(total)
		}
		for k := range wt {
			wt[k] /= float64(n)
			wsum[k] *= f
		}
	}
	b := &body{version: b0.version, cfg: b0.cfg, f: b0.f, w: ogd.Averaged(wt, wsum, steps), wt: wt, wsum: wsum, steps: steps}
	return kit.New[Model](learners.Common{Task: b0.cfg.Task, Labels: b0.cfg.Labels, Classes: b0.cfg.Classes, Mean: mean0, Scale: scale0}, b), nil
}

// candidates are the settings the default Fit compares on held-out rows
// (kit.SearchFit), none with Resume: γ times each of
// kit.GammaFactors when Gamma is 0, and η times 1, ¼ and 4 when Eta
// is 0 (the defaults first, left at 0 so that they resolve as before).
func candidates(cfg Config, d int) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) {
		return nil
	}
	if cfg.Resume != nil || d <= 0 {
		return nil
	}
	return kit.Grid(
		kit.GammaOptions(cfg.Gamma, d, func(c *Config, g float64) { c.Gamma = g }),
		kit.ScaleOptions(cfg.Eta, defaultEta, func(c *Config, e float64) { c.Eta = e }, 1, 0.25, 4))
}
