package pbrff

import (
	"fmt"
	"math"
	"reflect"

	"github.com/rfkit/rfkit/asm"
	"github.com/rfkit/rfkit/learners"
)

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "landmarks" (L×d, standardised), "w" (d×J row-major frequencies, column
// j = l·K + k), "q" (L×K pseudo-posterior weights), "coef" (L classifier
// weights); meta "bias". The frequencies are stored, never re-drawn from the
// seed; the expansion's phases −ω_lk·l and amplitudes c_l·q_lk are
// recomputed on load with the same arithmetic as Fit, so a loaded model
// scores exactly as the original.
const modelVersion = 1

// Model is a fitted PBRFF model. On the standardised input z = (x − mean)/scale
//
//	score(x) = Σ_l c_l Σ_k q_lk cos(ω_lk·(z − l)) + c₀ = Σ_j a_j cos(ω_j·z + b_j) + c₀
//
// with j = l·K + k, a_j = c_l q_lk and b_j = −ω_lk·l, evaluated by the fused
// epilogue asm.CosSum without storing the features. Its methods are those
// of learners.Base: it is immutable and safe for concurrent use; Predict,
// Score, Probability and their batch forms allocate nothing. Probability is
// the logistic function of the score for Logistic, (1 + score)/2 clamped to
// [0, 1] for SquaredHinge (whose population minimiser is 2p − 1 on
// [−1, 1]), and NaN for Hinge, which estimates only the sign of 2p − 1.
// Obtain one from Fit or Load; a Model must not be copied.
type Model struct {
	learners.Base[body, *body]
}

// Config returns the configuration the model was fitted with, defaults
// resolved (Landmarks, K, Gamma, Beta, C and Loss are never zero).
func (m *Model) Config() Config { return m.Body().cfg }

// Load decodes a model file; see learners.Base.UnmarshalBinary for its errors.
func Load(data []byte) (*Model, error) { return learners.Unmarshal[Model](data) }

// body is the learner's part of a Model (Fit fills it as it goes).
type body struct {
	cfg       Config    // resolved: no zero defaults, no Progress
	landmarks []float64 // L×d, standardised coordinates
	w         []float64 // d×J row-major: frequency j is column j
	q         []float64 // L×K pseudo-posterior weights
	coef      []float64 // L weights of the linear classifier
	bias      float64

	b, a []float64 // derived: the expansion's phases and amplitudes (len J)
}

func (*body) Spec() learners.Spec {
	return learners.Spec{Name: Name, Methods: []string{Name}, Version: modelVersion}
}

func (*body) NewWork() any { return nil }

func (m *body) Score(z []float64, _ any) float64 {
	return asm.CosSum(z, m.w, len(m.b), m.b, m.a) + m.bias
}

func (m *body) Encode(e *learners.Encoder) error {
	e.Array("landmarks", m.landmarks)
	e.Array("w", m.w)
	e.Array("q", m.q)
	e.Array("coef", m.coef)
	e.Meta("bias", m.bias)
	return e.Config(m.cfg)
}

func (m *body) Decode(dec *learners.Decoder) error {
	var cfg Config
	if err := dec.ValidConfig(&cfg); err != nil {
		return err
	}
	d := dec.Inputs
	switch {
	case dec.Task != learners.Binary:
		return fmt.Errorf("task %v, want binary", dec.Task)
	case !reflect.DeepEqual(cfg, cfg.resolved(d)) || cfg.Gamma == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	}
	L, K := cfg.Landmarks, cfg.K
	J := L * K // ≤ MaxFeatures (Validate)
	if d > math.MaxInt/8/J {
		return fmt.Errorf("%d inputs × %d frequencies overflow", d, J)
	}
	m.cfg = cfg
	m.landmarks, m.w, m.q, m.coef = dec.Array("landmarks", L*d), dec.Array("w", d*J), dec.Array("q", J), dec.Array("coef", L)
	m.bias = dec.Meta("bias")
	if err := dec.Err(); err != nil {
		return err
	}
	m.b = phases(m.w, m.landmarks, d, L, K)
	m.a = amplitudes(m.coef, m.q, K)
	dec.Link = cfg.link()
	return nil
}

// link is the Probability rule of the loss.
func (c Config) link() learners.Link {
	switch c.Loss {
	case Logistic:
		return learners.Logistic
	case SquaredHinge:
		return learners.Clamped
	}
	return learners.NoProbability
}

// newModel wraps a fitted body.
func newModel(m *body, labels learners.Labels, mean, scale []float64) *Model {
	out := new(Model)
	learners.Build(&out.Base, learners.Common{Task: learners.Binary, Labels: labels, Mean: mean, Scale: scale, Link: m.cfg.link()}, m)
	return out
}

func init() {
	learners.Define(Name, "PBRFF: landmarks with pseudo-posterior-weighted random Fourier features + linear SVM (Letarte et al. 2019)", func() *Config { return new(Config) }, Fit, Load)
}
