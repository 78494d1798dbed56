package rrf

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
)

// Fit trains a model in batch mode: inputs are standardised with the
// statistics of X (unless Standardize is Disabled), then Epochs passes over
// the rows, each in a fresh seeded permutation (in their order if Shuffle
// is Disabled), one step per mini-batch of BatchSize rows (gradients
// averaged). With BatchSize 1 each step is exactly Learner.Update's. With
// two or more Epochs the model's weights and biases are their means over
// the steps of the last ⌊Epochs/2⌋ epochs (see the package doc). With
// cfg.Resume, Fit continues from that model's state and standardisation
// (see Config.Resume); with Shuffle, Standardize, Calibrate and Search Disabled and one epoch
// (and, for the l2 loss, EtaGamma set), Fit on the first rows then Fit
// with Resume on the rest gives the same model bytes as Fit on all the
// rows.
//
// Classification labels are Classes if set (the model's with Resume), else
// taken from y: exactly two (any values; the smaller maps to −1), or, with
// Multiclass, all distinct values. Errors: a cancelled ctx, an invalid cfg,
// empty or ragged data, NaN or ±Inf in X or y, a label outside Classes, the
// wrong number of classes, a Resume model that disagrees with cfg or X, or
// an error returned by cfg.Progress (wrapped). The result does not depend
// on GOMAXPROCS. ctx is checked after every epoch.
//
// Default fit (kit.SearchFit): unless Search is Disabled it compares
// η × {1, ¼, 4} and λ × {1, 1/10, 10}, each when 0 (up to 9 candidates;
// none with Resume) on a held-out half of the rows and fits the best on
// every row; a classifier's probabilities are calibrated on the same half
// unless Calibrate is Disabled. Cost: one fit on every row plus one on
// half the rows per candidate (about 1 + candidates/2 fits). The online
// Learner (one pass, row by row) searches and calibrates nothing.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	cfg.EtaGamma = fitEtaGamma(cfg, y)
	if cfg.Task == learners.Regression {
		// here, not in resolve: an online Learner's model stores the
		// resolved Epochs it never uses, and keeps its bytes
		kit.SetDefault(&cfg.Epochs, defaultRegressionEpochs)
	}
	sub := cfg
	sub.Progress = nil
	return kit.SearchFit(ctx, Name, cfg.Task, X, y, nil, cfg, sub, candidates(cfg, X.Cols), kit.On(cfg.Calibrate, true) && cfg.Resume == nil, cfg.Seed,
		func(ctx context.Context, X featmap.Matrix, y, _ []float64, cfg Config) (*Model, error) {
			return fit(ctx, X, y, cfg)
		})
}

// fitEtaGamma is cfg.EtaGamma as Fit resolves it on targets y: unless
// set, defaultEtaGamma divided by the variance of y for the l2 loss of
// the Regression task (see Config.EtaGamma); 0 (the default) otherwise,
// or when the variance is not a positive finite number (bad targets are
// reported by the fit).
func fitEtaGamma(cfg Config, y []float64) float64 {
	if cfg.EtaGamma != 0 || cfg.Task != learners.Regression || (cfg.Loss != "" && cfg.Loss != L2) || len(y) == 0 {
		return cfg.EtaGamma
	}
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	var ss float64
	for _, v := range y {
		d := v - mean
		ss += float64(d * d) // rounded on its own: the same bits on every architecture
	}
	v := ss / float64(len(y))
	if !(v > 0) || math.IsInf(v, 0) || !(defaultEtaGamma/v <= limit.Param) {
		return 0
	}
	return defaultEtaGamma / v
}

// fit is Fit without the calibration.
func fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	rounds := kit.NewRounds(ctx, cfg.Progress, Name, Name, 0)
	if err := kit.CheckFit(ctx, "rrf", cfg, X, y); err != nil {
		return nil, err
	}
	l, xs, err := fitLearner(cfg, X, y)
	if err != nil {
		return nil, err
	}
	n, d := X.Rows, X.Cols
	t, err := kit.Targets(Name, y, l.target)
	if err != nil {
		return nil, err
	}
	rc := l.cfg
	p, s, g := l.p, l.s, l.p.newGrads()
	r := rand.New(rand.NewPCG(rc.Seed, 0x7272666974)) // "rrffit"
	avg := newAverage(p, rc.Epochs)
	err = l.Epochs(rounds, r, n, rc.Epochs, kit.On(rc.Shuffle, true), func(ep int, perm []int) (lossSum float64, err error) {
		for lo := 0; lo < n; lo += rc.BatchSize {
			hi := min(n, lo+rc.BatchSize)
			g.reset()
			for _, i := range perm[lo:hi] {
				p.features(s, xs[i*d:(i+1)*d])
				p.scores(s)
				if !xmath.Finite(s.f[0]) {
					return 0, fmt.Errorf("rrf: epoch %d, row %d: %w", ep, i, errScore)
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
			avg.add(p, ep)
		}
		return lossSum, nil
	})
	if err != nil {
		return nil, err
	}
	avg.set(p)
	return l.Snapshot(), nil
}

// average is the running sum of the weights and biases after each step of
// Fit's averaged epochs: the last ⌊Epochs/2⌋ (none for one epoch), whose
// mean the fitted model takes (tail averaging; see the package doc).
type average struct {
	from  int // the first averaged epoch (1-based); none if above Epochs
	w, b  []float64
	steps int
}

func newAverage(p *params, epochs int) *average {
	a := &average{from: epochs - epochs/2 + 1}
	if a.from <= epochs {
		a.w, a.b = make([]float64, len(p.w)), make([]float64, len(p.b))
	}
	return a
}

// add sums the weights and biases after a step of epoch ep.
func (a *average) add(p *params, ep int) {
	if a.w == nil || ep < a.from {
		return
	}
	for k, v := range p.w {
		a.w[k] += v
	}
	for k, v := range p.b {
		a.b[k] += v
	}
	a.steps++
}

// set replaces the weights and biases by their means over the averaged
// steps (nothing without any).
func (a *average) set(p *params) {
	if a.steps == 0 {
		return
	}
	m := float64(a.steps)
	for k, v := range a.w {
		p.w[k] = v / m
	}
	for k, v := range a.b {
		p.b[k] = v / m
	}
}

// fitLearner returns Fit's Learner, new or resumed, with its
// standardisation set, and the rows of X (checked) as it learns them
// (OnlineBase.FitRows; always with the model's statistics when resuming).
func fitLearner(cfg Config, X featmap.Matrix, y []float64) (*Learner, []float64, error) {
	l, err := fitLearner1(cfg, X, y)
	if err != nil {
		return nil, nil, err
	}
	xs, err := l.FitRows(X, cfg.Resume == nil && kit.On(cfg.Standardize, true))
	return l, xs, err
}

// fitLearner1 is the Learner of fitLearner, before its rows.
func fitLearner1(cfg Config, X featmap.Matrix, y []float64) (*Learner, error) {
	if cfg.Resume != nil {
		return kit.ResumeFit(Name, X, cfg, cfg.Resume, resumed)
	}
	c := cfg
	if c.Task == learners.Multiclass && len(c.Classes) == 0 {
		_, cl, err := kit.ClassLabels(y)
		if err != nil {
			return nil, fmt.Errorf("rrf: %w", err)
		}
		c.Classes = cl
	}
	if c.Task == learners.Binary && len(c.Classes) == 0 {
		if c.Multiclass {
			cl := slices.Clone(y)
			slices.Sort(cl)
			c.Classes = slices.Compact(cl)
			if len(c.Classes) < 2 {
				return nil, fmt.Errorf("rrf: labels: only one class (every label is %v); classification needs two or more", c.Classes[0])
			}
			if len(c.Classes) > maxClasses {
				return nil, fmt.Errorf("rrf: labels: %d classes, at most %d", len(c.Classes), maxClasses)
			}
		} else {
			_, lab, err := learners.BinaryLabels(y)
			if err != nil {
				return nil, fmt.Errorf("rrf: %w", err)
			}
			c.Classes = []float64{lab.Neg, lab.Pos}
		}
	}
	return NewLearner(X.Cols, c)
}

// candidates are the settings the default Fit compares on held-out rows
// (kit.SearchFit), none with Resume: η times 1, ¼ and 4 when Eta is
// 0, and λ times 1, 1/10 and 10 when Lambda is 0 (the defaults first,
// left at 0 so that they resolve as before).
func candidates(cfg Config, d int) []kit.Setting[Config] {
	if !kit.On(cfg.Search, true) {
		return nil
	}
	if cfg.Resume != nil || d <= 0 {
		return nil
	}
	return kit.Grid(
		kit.ScaleOptions(cfg.Eta, defaultEta, func(c *Config, e float64) { c.Eta = e }, 1, 0.25, 4),
		kit.ScaleOptions(cfg.Lambda, defaultLambda, func(c *Config, l float64) { c.Lambda = l }, 1, 0.1, 10))
}
