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
// statistics of X, then Epochs passes over a fresh seeded permutation of
// the rows, one step per mini-batch of BatchSize rows (gradients averaged).
// With BatchSize 1 each step is exactly Learner.Update's.
//
// Classification labels are Classes if set, else taken from y: exactly two
// (any values; the smaller maps to −1), or, with Multiclass, all distinct
// values. Errors: a cancelled ctx, an invalid cfg, empty or ragged data,
// NaN or ±Inf in X or y, a label outside Classes, the wrong number of
// classes, or an error returned by cfg.Progress (wrapped). The result does
// not depend on GOMAXPROCS. ctx is checked after every epoch.
func Fit(ctx context.Context, X featmap.Matrix, y []float64, cfg Config) (*Model, error) {
	start := time.Now()
	// Regression: no two-class decoding here; rrf decodes its own labels,
	// multiclass included.
	pre, err := learners.Prepare(ctx, Name, cfg, learners.Regression, X, y)
	if err != nil {
		return nil, err
	}
	n, d, xs := pre.N, pre.D, pre.Z
	c := cfg
	if c.Task == learners.Binary && len(c.Classes) == 0 {
		if c.Multiclass {
			cl := slices.Clone(y)
			slices.Sort(cl)
			c.Classes = slices.Compact(cl)
			if len(c.Classes) < 2 {
				return nil, fmt.Errorf("rrf: labels: only one class (every label is %v); classification needs two or more", c.Classes[0])
			}
			if len(c.Classes) > MaxClasses {
				return nil, fmt.Errorf("rrf: labels: %d classes, at most %d", len(c.Classes), MaxClasses)
			}
		} else {
			_, lab, err := learners.BinaryLabels(y)
			if err != nil {
				return nil, fmt.Errorf("rrf: %w", err)
			}
			c.Classes = lab.Slice()
		}
	}
	l, err := NewLearner(d, c)
	if err != nil {
		return nil, err
	}
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
	for ep := 1; ep <= rc.Epochs; ep++ {
		r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
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
	return l.snapshot(pre.Mean, pre.Scale), nil
}
