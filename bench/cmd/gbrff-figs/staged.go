package main

import (
	"context"
	"encoding"
	"fmt"
	"math"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners/gbrff"
)

// expansion is a fitted GBRFF model read back from its model file
// (learners/gbrff/model.go, version 1): H(x) = h0 + Σ_j a_j cos(w_j·z + b_j)
// on z = (x − mean)/scale, per terms per round (1 for GBRFF2, K for
// GBRFF1), so that the model after t rounds is the first t·per terms.
type expansion struct {
	mean, scale, w, b, a []float64
	h0                   float64
	d, J, per            int
	neg, pos             float64 // the labels: H < 0 → neg, H ≥ 0 → pos
}

// fitGBRFF fits a binary GBRFF model without calibration and returns it
// with its expansion.
func fitGBRFF(X featmap.Matrix, y []float64, cfg gbrff.Config) (*gbrff.Model, *expansion, error) {
	cfg.Calibration = gbrff.CalibrationNone
	m, err := gbrff.Fit(context.Background(), X, y, cfg)
	if err != nil {
		return nil, nil, err
	}
	per := 1
	if cfg.Variant == gbrff.VariantGBRFF1 {
		per = m.Config().K
	}
	e, err := readExpansion(m, per)
	if err != nil {
		return nil, nil, err
	}
	return m, e, nil
}

// readExpansion decodes m's model file.
func readExpansion(m encoding.BinaryMarshaler, per int) (*expansion, error) {
	data, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	f, err := modelfile.Parse(data)
	if err != nil {
		return nil, err
	}
	if f.Header.Version != 1 || len(f.Header.Labels) != 2 {
		return nil, fmt.Errorf("staged: want an uncalibrated binary GBRFF model file (version 1), got version %d with %d labels", f.Header.Version, len(f.Header.Labels))
	}
	e := &expansion{d: f.Header.Inputs, per: per, neg: f.Header.Labels[0], pos: f.Header.Labels[1]}
	if e.mean, err = f.Array("mean", e.d); err == nil {
		if e.scale, err = f.Array("scale", e.d); err == nil {
			if e.b, err = f.Array("b", -1); err == nil {
				e.J = len(e.b)
				if e.a, err = f.Array("a", e.J); err == nil {
					if e.w, err = f.Array("w", e.d*e.J); err == nil {
						e.h0, err = f.Meta("h0")
					}
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if e.J%per != 0 {
		return nil, fmt.Errorf("staged: %d terms is not a multiple of %d per round", e.J, per)
	}
	return e, nil
}

// rounds is the number of boosting rounds of the expansion.
func (e *expansion) rounds() int { return e.J / e.per }

// stagedScores returns, for each cut t (in rounds, increasing), the scores
// H_t of the rows of X: out[c][i].
func (e *expansion) stagedScores(X featmap.Matrix, cuts []int) ([][]float64, error) {
	if X.Cols != e.d {
		return nil, fmt.Errorf("staged: %d inputs, the model takes %d", X.Cols, e.d)
	}
	out := make([][]float64, len(cuts))
	for c := range out {
		out[c] = make([]float64, X.Rows)
	}
	z := make([]float64, e.d)
	for i := 0; i < X.Rows; i++ {
		for k, v := range X.Row(i) {
			z[k] = (v - e.mean[k]) / e.scale[k]
		}
		H, j := e.h0, 0
		for c, t := range cuts {
			if t < 0 || t > e.rounds() || (c > 0 && t < cuts[c-1]) {
				return nil, fmt.Errorf("staged: bad cut %d (model has %d rounds)", t, e.rounds())
			}
			for ; j < t*e.per; j++ {
				var s float64
				for k, zk := range z {
					s += e.w[k*e.J+j] * zk
				}
				H += e.a[j] * math.Cos(s+e.b[j])
			}
			out[c][i] = H
		}
	}
	return out, nil
}

// stagedAccuracy is the accuracy (in %) of the model after each cut on
// (X, y).
func (e *expansion) stagedAccuracy(X featmap.Matrix, y []float64, cuts []int) ([]float64, error) {
	S, err := e.stagedScores(X, cuts)
	if err != nil {
		return nil, err
	}
	acc := make([]float64, len(cuts))
	for c, s := range S {
		ok := 0
		for i, h := range s {
			if e.label(h) == y[i] {
				ok++
			}
		}
		acc[c] = 100 * float64(ok) / float64(len(y))
	}
	return acc, nil
}

func (e *expansion) label(h float64) float64 {
	if h >= 0 {
		return e.pos
	}
	return e.neg
}

// check compares the full expansion's scores with the model's own Score
// on the rows of X: a guard that the file was read right.
func (e *expansion) check(m *gbrff.Model, X featmap.Matrix) error {
	S, err := e.stagedScores(X, []int{e.rounds()})
	if err != nil {
		return err
	}
	var amp float64
	for _, a := range e.a {
		amp += math.Abs(a)
	}
	for i, h := range S[0] {
		if want := m.Score(X.Row(i)); math.Abs(h-want) > 1e-9*(1+math.Abs(e.h0)+amp) {
			return fmt.Errorf("staged: row %d: expansion gives %v, the model %v", i, h, want)
		}
	}
	return nil
}
