package rrf

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

// Learner is the online RRF learner. It has a single writer: Update must
// not be called concurrently with itself or with Snapshot and Stats. Hand
// concurrent readers a Snapshot, an immutable Model.
type Learner struct {
	cfg     Config // resolved
	classes []float64
	p       *params
	s       *work
	widths  bool
	kit.OnlineBase
}

// NewLearner returns a learner for rows of d inputs, its noise drawn from
// cfg.Seed and its widths at cfg.Width.
func NewLearner(d int, cfg Config) (*Learner, error) {
	c, err := kit.StartLearner("rrf", d, cfg, Config.resolve, func(c Config) int { return c.Features })
	if err != nil {
		return nil, err
	}
	classes := slices.Clone(c.Classes)
	slices.Sort(classes)
	if c.Task == learners.Binary && len(classes) == 0 {
		classes = []float64{-1, 1}
	}
	if c.Task == learners.Multiclass && len(classes) == 0 {
		return nil, errors.New("rrf: NewLearner: the multiclass task needs Classes (three or more labels)")
	}
	c.Classes = classes
	C := 1
	if len(classes) > 2 {
		C = len(classes)
	}
	if C > 1 && math.MaxInt/C/2/c.Features < 1 {
		return nil, fmt.Errorf("rrf: %d classes × %d features do not fit in memory", C, c.Features)
	}
	p := newParams(d, c, C)
	return &Learner{cfg: c, classes: classes, p: p, s: p.newWork(), widths: !c.FixedWidths, OnlineBase: kit.NewOnlineBase("rrf", d)}, nil
}

// Resume returns a Learner that continues from m, a Model from Fit,
// Snapshot or Load: the same noise, log-widths, weights, biases, classes,
// configuration and input standardisation (applied to every row of Update
// and Predict), so that its Updates take exactly the steps the Learner
// that made m would have taken next. Its Stats start at zero. m is not
// changed.
func Resume(m *Model) (*Learner, error) {
	return kit.ResumeFrom(Name, m, resumed)
}

// resumed is the Learner of cfg.Resume with the learning settings of cfg
// (see Config.Resume), for rows of d inputs. cfg is valid and its model
// non-empty; the caller (kit.ResumeFrom or ResumeFit) sets its
// standardisation.
func resumed(cfg Config, d int) (*Learner, error) {
	m := cfg.Resume
	mc, b := m.Config(), m.Body()
	cl := slices.Clone(cfg.Classes)
	slices.Sort(cl)
	err := cmp.Or(kit.CheckResume(Name, d, m.NumInputs(), cfg.Task, mc.Task),
		kit.ResumeSetting(Name, "Features", cfg.Features, mc.Features),
		kit.ResumeSetting(Name, "Width", cfg.Width, mc.Width),
		kit.ResumeSetting(Name, "Loss", cfg.Loss, mc.Loss))
	if err == nil && len(cl) > 0 && !slices.Equal(cl, mc.Classes) {
		err = fmt.Errorf("rrf: Resume: Config.Classes = %v, the model's are %v", cl, mc.Classes)
	}
	if err != nil {
		return nil, err
	}
	c := cfg
	c.Features, c.Width, c.Loss, c.Classes, c.Multiclass = mc.Features, mc.Width, mc.Loss, mc.Classes, mc.Multiclass
	c = c.resolve(d)
	if err := c.Validate(); err != nil { // Eta·Lambda with the resolved values
		return nil, err
	}
	p := b.p.clone()
	return &Learner{cfg: c, classes: slices.Clone(mc.Classes), p: p, s: p.newWork(), widths: !c.FixedWidths, OnlineBase: kit.NewOnlineBase("rrf", d)}, nil
}

// Config returns the resolved configuration (defaults filled in, Classes
// sorted).
func (l *Learner) Config() Config { return l.cfg }

// target maps y (finite) to the internal target: ±1 (binary), a class
// index (multiclass) or y itself (regression).
func (l *Learner) target(y float64) (float64, error) {
	classes := l.classes
	if l.cfg.Task == learners.Regression {
		return y, nil
	}
	i, ok := slices.BinarySearch(classes, y)
	if !ok {
		if len(classes) == 2 {
			return 0, fmt.Errorf("label %v is neither %v nor %v", y, classes[0], classes[1])
		}
		return 0, fmt.Errorf("label %v is not one of the %d classes [%v … %v]", y, len(classes), classes[0], classes[len(classes)-1])
	}
	if l.p.C == 1 {
		return float64(2*i - 1), nil
	}
	return float64(i), nil
}

// errScore is returned when the phases overflow.
var errScore = errors.New("the score is not finite (inputs too large for the current widths); no step taken")

// Update predicts x (standardised first if the Learner has a
// standardisation), records the outcome in Stats and takes one SGD step on
// the weights, bias and (unless FixedWidths) the log-widths. y is a class
// label (one of Classes; −1/+1 by default) or a regression target. A
// wrong-length or non-finite x, a non-finite y or an unknown label is an
// error and changes nothing. It allocates nothing.
func (l *Learner) Update(x []float64, y float64) (learners.Outcome, error) {
	return l.UpdateWith(x, y, l.cfg.Task, l.target, l.step)
}

// step is Update on a checked row and internal target.
func (l *Learner) step(x []float64, t float64) (learners.Outcome, error) {
	p, s := l.p, l.s
	p.features(s, x)
	p.scores(s)
	o := learners.Outcome{}
	for _, f := range s.f {
		if !xmath.Finite(f) {
			return o, errScore
		}
	}
	o.Prediction = output(p, l.classes, l.cfg.Task, s.f)
	if l.cfg.Task == learners.Binary || l.cfg.Task == learners.Multiclass {
		o.Mistake = o.Prediction != l.label(t)
	}
	loss, r0, r1, g0, g1 := p.lossGrad(s, t)
	o.Loss = loss
	p.step(s, r0, r1, g0, g1, &l.cfg, l.widths)
	return o, nil
}

// label maps an internal target back to the original label.
func (l *Learner) label(t float64) float64 {
	if l.p.C > 1 {
		return l.classes[int(t)]
	}
	if t > 0 {
		return l.classes[1]
	}
	return l.classes[0]
}

// output turns scores into a label or value.
func output(p *params, classes []float64, task learners.Task, f []float64) float64 {
	switch {
	case task == learners.Regression:
		return f[0]
	case p.C > 1:
		if math.IsNaN(f[0]) {
			return math.NaN()
		}
		return classes[vec.Argmax(f, -1)]
	}
	return kit.DecodeLabel(learners.Labels{Neg: classes[0], Pos: classes[1]}, f[0])
}

// Predict returns the current prediction for x without learning. It
// allocates nothing; it panics if len(x) != NumInputs(). A NaN input is a
// missing value, imputed as a Model does (0 after the standardisation).
func (l *Learner) Predict(x []float64) float64 {
	l.CheckPredict(x)
	l.p.features(l.s, l.Input(x))
	l.p.scores(l.s)
	return output(l.p, l.classes, l.cfg.Task, l.s.f)
}

// Snapshot returns an immutable copy of the current model, safe to hand to
// concurrent readers while the Learner goes on learning. It carries the
// Learner's standardisation (mean 0 and scale 1 without one) and its whole
// state: Resume continues from it.
func (l *Learner) Snapshot() *Model {
	mean, scale := l.SnapshotStandardization()
	return newModel(l.cfg, slices.Clone(l.classes), l.p.clone(), mean, scale)
}
