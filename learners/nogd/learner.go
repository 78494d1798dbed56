package nogd

import (
	"cmp"
	"errors"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/ogd"
)

// Learner is the streaming form of NOGD: Update predicts a row with the
// current weights and takes the online step, as Fit does with one epoch
// over the rows in order. Its first Budget rows are the landmarks: until
// the B-th arrives it predicts with score 0 (the weights are zero) and only
// keeps the row; the B-th builds the Nyström map and replays the B steps
// Fit takes on those rows, so that a Learner fed a stream ends with the
// model Fit gives on it (Shuffle and Standardize Disabled, one epoch).
// Snapshot returns a model that Resume continues exactly. A Learner is not
// safe for concurrent use.
type Learner struct {
	cfg Config
	// land holds the rows seen (standardised), k×d with capacity B×d,
	// until k = B; then the landmarks. pend are their targets while
	// k < B (nil once the map is built).
	land, pend []float64
	nys        *featmap.Nystrom // nil until B rows were seen
	w, sum     []float64        // current weights and Σ_t w_t
	steps      int
	z, work    []float64
	kit.OnlineBase
}

// NewLearner returns a learner for rows of d inputs with zero weights and
// no landmarks yet. Budget 0 means 100.
func NewLearner(d int, cfg Config) (*Learner, error) {
	c, err := kit.StartLearner(methodName, d, cfg, Config.resolve, func(c Config) int { return c.Budget })
	if err != nil {
		return nil, err
	}
	B := c.Budget
	return &Learner{cfg: c, land: make([]float64, 0, B*d), pend: make([]float64, 0, B),
		w: make([]float64, B), sum: make([]float64, B), z: make([]float64, B),
		OnlineBase: kit.NewOnlineBase(methodName, d)}, nil
}

// Resume returns a Learner that continues from m, a Model from Fit,
// Snapshot or Load (file version 2): the same landmarks (or the rows kept
// so far, if m was snapshotted before the B-th), current and summed
// weights, step count, labels, configuration and input standardisation,
// so that its Updates take exactly the steps the Learner that made m
// would have taken next. Its Stats start at zero. A version 1 model holds
// only the averaged weights and is refused.
func Resume(m *Model) (*Learner, error) {
	return kit.ResumeFrom(methodName, m, resumed)
}

// resumed is the Learner of cfg.Resume with the learning settings of cfg
// (see Config.Resume), for rows of d inputs. cfg is valid and its model
// non-empty; the caller (kit.ResumeFrom or ResumeFit) sets its
// standardisation.
func resumed(cfg Config, d int) (*Learner, error) {
	m := cfg.Resume
	b, mc := m.Body(), m.Config()
	if err := cmp.Or(ogd.CheckResumable(methodName, b.wt != nil, b.version),
		kit.CheckResume(methodName, d, m.NumInputs(), cfg.Task, mc.Task),
		kit.ResumeSetting(methodName, "Budget", cfg.Budget, mc.Budget),
		kit.ResumeSetting(methodName, "Gamma", cfg.Gamma, mc.Gamma),
		kit.ResumeSetting(methodName, "Loss", cfg.Loss, mc.Loss),
		kit.ResumeSetting(methodName, "Labels", cfg.Labels, mc.Labels)); err != nil {
		return nil, err
	}
	c := cfg
	c.Budget, c.Gamma, c.Loss, c.Labels = mc.Budget, mc.Gamma, mc.Loss, mc.Labels
	c = c.resolve(d)
	B := c.Budget
	l := &Learner{cfg: c, nys: b.nys, w: slices.Clone(b.wt), sum: slices.Clone(b.wsum), steps: b.steps,
		z: make([]float64, B), OnlineBase: kit.NewOnlineBase(methodName, d)}
	if b.nys == nil { // still collecting landmarks
		l.land = append(make([]float64, 0, B*d), b.land...)
		l.pend = append(make([]float64, 0, B), b.pend...)
	} else {
		l.work = make([]float64, b.nys.Outputs())
	}
	return l, nil
}

// Config returns the resolved configuration.
func (l *Learner) Config() Config { return l.cfg }

// Update predicts x (standardised first if the Learner has a
// standardisation) with the current weights, records the outcome and
// takes the NOGD step (or, before the B-th row, keeps the row as a
// landmark). y is Labels.Neg or Labels.Pos (−1/+1 by default) or a finite
// target. Bad input is an error and changes nothing. It allocates nothing
// (the B-th row builds the map: O(B³), and allocates).
func (l *Learner) Update(x []float64, y float64) (learners.Outcome, error) {
	return l.UpdateWith(x, y, l.cfg.Task, l.target, l.learn)
}

// target maps a label to the internal target: ±1 (binary) or y itself.
func (l *Learner) target(y float64) (float64, error) {
	if l.cfg.Task == learners.Binary {
		return kit.EncodeLabel(l.cfg.Labels, y)
	}
	return y, nil
}

// learn is Update on a standardised row x with internal target t (±1 for
// binary).
func (l *Learner) learn(x []float64, t float64) (learners.Outcome, error) {
	if l.nys != nil {
		return l.step(x, t)
	}
	o := l.outcome(0, t)
	B, d := l.cfg.Budget, len(x)
	l.land = append(l.land, x...)
	l.pend = append(l.pend, t)
	if len(l.pend) < B {
		return o, nil
	}
	nys, err := featmap.NewNystromFromLandmarks(l.land, d, B, l.cfg.Gamma)
	if err == nil {
		l.nys, l.work = nys, make([]float64, nys.Outputs())
		for i := 0; i < B && err == nil; i++ {
			_, err = l.step(l.land[i*d:(i+1)*d], l.pend[i])
		}
	}
	if err != nil { // back to the state before this row
		l.nys, l.work, l.steps = nil, nil, 0
		clear(l.w)
		clear(l.sum)
		l.land, l.pend = l.land[:(B-1)*d], l.pend[:B-1]
		return learners.Outcome{}, err
	}
	l.land, l.pend = nys.Landmarks(), nil
	return o, nil
}

// outcome is the prediction and loss of score f for target t.
func (l *Learner) outcome(f, t float64) learners.Outcome {
	var o learners.Outcome
	o.Loss, _ = ogd.Grad(l.cfg.Loss, f, t)
	if l.cfg.Task == learners.Binary {
		o.Prediction = kit.DecodeLabel(l.cfg.Labels, f)
		o.Mistake = (f >= 0) != (t > 0)
	} else {
		o.Prediction = f
	}
	return o
}

// step predicts x with the current weights and takes the online step:
// w ← w − η g z(x), then Σ w_t += w.
func (l *Learner) step(x []float64, t float64) (learners.Outcome, error) {
	l.nys.TransformRowWork(l.z, x, l.work)
	f := xmath.DotRound(l.w, l.z)
	if !xmath.Finite(f) {
		return learners.Outcome{}, errors.New("the score is not finite (step size too large); no step taken")
	}
	o := l.outcome(f, t)
	if _, g := ogd.Grad(l.cfg.Loss, f, t); g != 0 {
		a := float64(l.cfg.Eta * g)
		for k, v := range l.z {
			l.w[k] -= float64(a * v)
		}
	}
	for k, v := range l.w {
		l.sum[k] += v
	}
	l.steps++
	return o, nil
}

// Predict returns the prediction of the current (not averaged) weights:
// the label or value of score 0 before the B-th row. It panics if len(x)
// is wrong; it allocates nothing. A NaN input is a missing value, imputed
// as a Model does (0 after the standardisation).
func (l *Learner) Predict(x []float64) float64 {
	l.CheckPredict(x)
	var f float64
	if l.nys != nil {
		l.nys.TransformRowWork(l.z, l.Input(x), l.work)
		f = xmath.DotRound(l.w, l.z)
	}
	if l.cfg.Task == learners.Binary {
		return kit.DecodeLabel(l.cfg.Labels, f)
	}
	return f
}

// Snapshot returns an immutable model with the averaged weights
// w̄ = (1/T) Σ w_t (the current weights before the first step), the
// Learner's standardisation (mean 0 and scale 1 without one) and its whole
// state: Resume continues from it. Before the B-th row the model has no
// map yet and scores 0.
func (l *Learner) Snapshot() *Model {
	mean, scale := l.SnapshotStandardization()
	b := &body{version: modelVersion, cfg: l.cfg, nys: l.nys, coef: ogd.Averaged(l.w, l.sum, l.steps),
		wt: slices.Clone(l.w), wsum: slices.Clone(l.sum), steps: l.steps}
	if l.nys == nil {
		b.land, b.pend = slices.Clone(l.land), slices.Clone(l.pend)
	}
	return kit.New[Model](learners.Common{Task: l.cfg.Task, Labels: l.cfg.Labels, Mean: mean, Scale: scale}, b)
}
