package kernel

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
	"github.com/rfkit/rfkit/trig"
)

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "support" (m×d standardised subsample rows), "alpha" (m dual weights);
// meta "bias" (the subsample's mean target). A Loss = hinge model keeps
// only its support vectors: their number is the meta "vectors".
const modelVersion = 1

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted kernel ridge, logistic or SVM model:
// score(x) = Σ_i α_i exp(−γ‖z − x_i‖²) + bias, z = (x − mean)/scale.
// Obtain one from Fit or Load.
// It is immutable and safe for concurrent use; Predict and Score allocate
// nothing; a NaN input is a missing value (see Predict); a Model must not
// be copied.
// Config returns the configuration it was fitted with, defaults resolved:
// Subsample is the number of rows used.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	cfg     Config
	support []float64 // m×d
	alpha   []float64
	bias    float64
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: methodName, Methods: []string{methodName}, Version: modelVersion}
}

// kernelRow sets k[i] = exp(−γ‖x − x_i‖²) for the first len(k) support
// rows, each squared distance summed in index order with rounded products
// (four rows side by side, independent chains: for speed only).
func (b *body) kernelRow(k, x []float64) {
	d := len(x)
	g := b.cfg.Gamma
	i := 0
	for ; i+4 <= len(k); i += 4 {
		s := b.support[i*d : (i+4)*d]
		s0, s1, s2, s3 := s[:d], s[d:2*d], s[2*d:3*d], s[3*d:4*d]
		var q0, q1, q2, q3 float64
		for j, v := range x {
			t0, t1, t2, t3 := v-s0[j], v-s1[j], v-s2[j], v-s3[j]
			q0 += float64(t0 * t0)
			q1 += float64(t1 * t1)
			q2 += float64(t2 * t2)
			q3 += float64(t3 * t3)
		}
		k[i], k[i+1], k[i+2], k[i+3] = float64(-g*q0), float64(-g*q1), float64(-g*q2), float64(-g*q3)
	}
	for ; i < len(k); i++ {
		s := b.support[i*d : (i+1)*d]
		var q float64
		for j, v := range x {
			t := v - s[j]
			q += float64(t * t)
		}
		k[i] = float64(-g * q)
	}
	trig.Exp(k, k)
}

// NewWork is the scratch of a score: the m kernel values.
func (b *body) NewWork() any { return make([]float64, len(b.alpha)) }

// Score is Σ α_i k(z, x_i) + bias, summed in index order.
func (b *body) Score(z []float64, w any) float64 {
	k := w.([]float64)
	b.kernelRow(k, z)
	s := b.bias
	for i, a := range b.alpha {
		s += float64(a * k[i])
	}
	return s
}

func (b *body) Configuration() kit.Validator { return &b.cfg }

func (b *body) Encode(e *kit.Encoder) error {
	e.Array("support", b.support)
	e.Array("alpha", b.alpha)
	e.Meta("bias", b.bias)
	if b.cfg.Loss == Hinge {
		e.Meta("vectors", float64(len(b.alpha)))
	}
	return nil
}

func (b *body) Decode(d *kit.Decoder) (err error) {
	c := b.cfg
	switch {
	case c.Subsample == 0 || c.Gamma == 0 || c.Lambda == 0 || c.Loss == "" || (c.Loss == Hinge) != (c.C != 0):
		return fmt.Errorf("config %+v has unresolved defaults", c)
	case c.Task != d.Task:
		return fmt.Errorf("config task %v, header task %v", c.Task, d.Task)
	case d.Inputs > limit.Elements/c.Subsample:
		return fmt.Errorf("%d inputs × %d rows overflow", d.Inputs, c.Subsample)
	}
	rows := c.Subsample
	if c.Loss == Hinge {
		if rows, err = svmVectors(d, c.Subsample); err != nil {
			return err
		}
	}
	b.support, b.alpha, b.bias = d.Array("support", rows*d.Inputs), d.Array("alpha", rows), d.Meta("bias")
	d.Link = linrf.Link(c.Loss)
	return d.Err()
}

func init() {
	kit.Define(methodName, "exact Gaussian-kernel ridge, logistic regression or SVM on a uniform subsample (≤ 2000 rows by default): the exact-kernel baseline", []learners.Task{learners.Binary, learners.Regression},
		func() *Config { return new(Config) }, Fit, Load)
}
