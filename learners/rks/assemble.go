package rks

import (
	"fmt"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// Assemble returns the model score(x) = coef·z((x − mean)/scale) + bias
// for a read-out fitted outside Fit, for example by a distributed solver
// that accumulated the ridge system's sufficient statistics over shards
// (module github.com/rfkit/rfkit/beam). The random map is the one Fit draws
// for cfg and len(c.Mean) inputs (featmap.NewRFF with cfg.Seed), so
// Assemble with Fit's standardisation, coefficients and bias gives Fit's
// model, bit for bit.
//
// c.Task must equal cfg.Task; c.Link is set from the loss (the value
// passed is ignored). Errors: an invalid cfg, len(c.Scale) ≠ len(c.Mean)
// or no inputs, a mean that is not finite or a scale that is not finite
// and positive, len(coef) ≠ the resolved Features, a coefficient or bias
// that is not finite, binary labels that are not two ordered finite values,
// or feature names that a model cannot store.
func Assemble(cfg Config, c learners.Common, coef []float64, bias float64) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d := len(c.Mean)
	switch {
	case d == 0:
		return nil, fmt.Errorf("rks: Assemble: no inputs (empty Mean)")
	case len(c.Scale) != d:
		return nil, fmt.Errorf("rks: Assemble: len(Scale) = %d, len(Mean) = %d", len(c.Scale), d)
	case c.Task != cfg.Task:
		return nil, fmt.Errorf("rks: Assemble: Common.Task %v, Config.Task %v", c.Task, cfg.Task)
	}
	for j := range d {
		if !xmath.Finite(c.Mean[j]) || !xmath.Finite(c.Scale[j]) || !(c.Scale[j] > 0) {
			return nil, fmt.Errorf("rks: Assemble: input %d: mean %v, scale %v (want finite, scale > 0)", j, c.Mean[j], c.Scale[j])
		}
	}
	if c.Task == learners.Binary {
		l := c.Labels
		if !xmath.Finite(l.Neg) || !xmath.Finite(l.Pos) || !(l.Neg < l.Pos) {
			return nil, fmt.Errorf("rks: Assemble: labels %v and %v: want two finite values, Neg < Pos", l.Neg, l.Pos)
		}
	}
	r := cfg.resolve(d)
	if len(coef) != r.Features {
		return nil, fmt.Errorf("rks: Assemble: %d coefficients for %d features", len(coef), r.Features)
	}
	for k, v := range coef {
		if !xmath.Finite(v) {
			return nil, fmt.Errorf("rks: Assemble: coef[%d] is %v", k, v)
		}
	}
	if !xmath.Finite(bias) {
		return nil, fmt.Errorf("rks: Assemble: bias is %v", bias)
	}
	rff, err := featmap.NewRFF(featmap.RFFConfig{Inputs: d, Features: r.Features, Gamma: r.Gamma, Seed: r.Seed})
	if err != nil {
		return nil, fmt.Errorf("rks: Assemble: %w", err)
	}
	b := &body{cfg: r, Head: linrf.Head{RFF: rff, Coef: append([]float64(nil), coef...), Bias: bias}}
	c.Link = linrf.Link(r.Loss)
	names := c.Names
	c.Names = nil
	c.Mean, c.Scale = append([]float64(nil), c.Mean...), append([]float64(nil), c.Scale...)
	m := kit.New[Model](c, b)
	if len(names) == 0 {
		return m, nil
	}
	return learners.WithFeatureNames(m, names)
}
