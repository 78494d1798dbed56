package rrf

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
)

// Fit trains a model in batch mode: inputs are standardised with the
// statistics of X (unless Standardize is Disabled), then Epochs passes over
// the rows, each in a fresh seeded permutation (in their order if Shuffle
// is Disabled), one step per mini-batch of BatchSize rows (gradients
// averaged). With BatchSize 1 each step is exactly Learner.Update's. With
// cfg.Resume, Fit continues from that model's state and standardisation
// (see Config.Resume); with Shuffle and Standardize Disabled and one epoch,
// Fit on the first rows then Fit with Resume on the rest gives the same
// model bytes as Fit on all the rows.
//
// Classification labels are Classes if set (the model's with Resume), else
// taken from y: exactly two (any values; the smaller maps to −1), or, with
// Multiclass, all distinct values. Errors: a cancelled ctx, an invalid cfg,
// empty or ragged data, NaN or ±Inf in X or y, a label outside Classes, the
// wrong number of classes, a Resume model that disagrees with cfg or X, or
// an error returned by cfg.Progress (wrapped). The result does not depend
// on GOMAXPROCS. ctx is checked after every epoch.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rrf: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := learners.CheckData(X, y); err != nil {
		return nil, fmt.Errorf("rrf: %w", err)
	}
	l, xs, err := fitLearner(cfg, X, y)
	if err != nil {
		return nil, err
	}
	n, d := X.Rows, X.Cols
	t := make([]float64, n)
	for i, v := range y {
		if t[i], err = target(l.classes, l.p.C, l.cfg.Task, v); err != nil {
			return nil, fmt.Errorf("rrf: y[%d]: %w", i, err)
		}
	}
	rc := l.cfg
	p, s, g := l.p, l.s, l.p.newGrads()
	r := rand.New(rand.NewPCG(rc.Seed, 0x7272666974)) // "rrffit"
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	shuffle := rc.Shuffle.On(true)
	for ep := 1; ep <= rc.Epochs; ep++ {
		if shuffle {
			r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		}
		var lossSum float64
		for lo := 0; lo < n; lo += rc.BatchSize {
			hi := min(n, lo+rc.BatchSize)
			g.reset()
			for _, i := range perm[lo:hi] {
				p.features(s, xs[i*d:(i+1)*d])
				p.scores(s)
				if !xmath.Finite(s.f[0]) {
					return nil, fmt.Errorf("rrf: epoch %d, row %d: %w", ep, i, errScore)
				}
				loss, r0, r1, g0, g1 := p.lossGrad(s, t[i])
				lossSum += loss
				if hi-lo == 1 { // the online step, without the accumulator
					p.step(s, r0, r1, g0, g1, &rc, l.widths)
					continue
				}
				p.accumulate(g, s, r0, r1, g0, g1, &rc, l.widths)
			}
			if hi-lo > 1 {
				p.apply(g, hi-lo, &rc, l.widths)
			}
		}
		e := learners.Event{Method: Name, Round: ep, Rounds: rc.Epochs, Loss: lossSum / float64(n), Elapsed: time.Since(start)}
		if err := cfg.Progress.Report(e); err != nil {
			return nil, fmt.Errorf("rrf: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("rrf: %w", err)
		}
	}
	return l.Snapshot(), nil
}

// fitLearner returns Fit's Learner, new or resumed, with its
// standardisation set, and the rows of X (checked) as it learns them: a
// dense n×d copy, standardised unless Standardize is Disabled (always with
// the model's statistics when resuming).
func fitLearner(cfg Config, X featmap.Matrix, y []float64) (*Learner, []float64, error) {
	n, d := X.Rows, X.Cols
	if cfg.Resume != nil {
		if err := learners.CheckShape(X, cfg.Resume.NumInputs()); err != nil {
			return nil, nil, fmt.Errorf("rrf: Resume: %w", err)
		}
		l, err := resumed(cfg, d)
		if err != nil {
			return nil, nil, err
		}
		xs := make([]float64, n*d)
		for i := 0; i < n; i++ {
			copy(xs[i*d:(i+1)*d], l.input(X.Row(i)))
		}
		return l, xs, nil
	}
	c := cfg
	if c.Task == learners.Multiclass && len(c.Classes) == 0 {
		_, cl, err := learners.ClassLabels(y)
		if err != nil {
			return nil, nil, fmt.Errorf("rrf: %w", err)
		}
		c.Classes = cl
	}
	if c.Task == learners.Binary && len(c.Classes) == 0 {
		if c.Multiclass {
			cl := slices.Clone(y)
			slices.Sort(cl)
			c.Classes = slices.Compact(cl)
			if len(c.Classes) < 2 {
				return nil, nil, fmt.Errorf("rrf: labels: only one class (every label is %v); classification needs two or more", c.Classes[0])
			}
			if len(c.Classes) > MaxClasses {
				return nil, nil, fmt.Errorf("rrf: labels: %d classes, at most %d", len(c.Classes), MaxClasses)
			}
		} else {
			_, lab, err := learners.BinaryLabels(y)
			if err != nil {
				return nil, nil, fmt.Errorf("rrf: %w", err)
			}
			c.Classes = lab.Slice()
		}
	}
	var xs []float64
	var mean, scale []float64
	if c.Standardize.On(true) {
		var err error
		if mean, scale, xs, err = learners.Standardize(X); err != nil {
			return nil, nil, fmt.Errorf("rrf: %w", err)
		}
	} else {
		xs = make([]float64, n*d)
		for i := 0; i < n; i++ {
			copy(xs[i*d:(i+1)*d], X.Row(i))
		}
	}
	l, err := NewLearner(d, c)
	if err != nil {
		return nil, nil, err
	}
	if mean != nil {
		if err := l.SetStandardization(mean, scale); err != nil {
			return nil, nil, fmt.Errorf("rrf: %w", err)
		}
	}
	return l, xs, nil
}
