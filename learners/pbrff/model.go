package pbrff

import (
	"fmt"
	"math"
	"reflect"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/vec"
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
//
// Version 2 (multiclass models; binary ones are still written as version
// 1, FileVersion): "coef" holds M×L weights for M classes, class-major,
// and the array "biases" the M intercepts instead of the meta "bias"; the
// header task is "multiclass", its labels the M classes, and the config
// has "Task".
const modelVersion = 2

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted PBRFF model. On the standardised input z = (x − mean)/scale
//
//	score(x) = Σ_l c_l Σ_k q_lk cos(ω_lk·(z − l)) + c₀ = Σ_j a_j cos(ω_j·z + b_j) + c₀
//
// with j = l·K + k, a_j = c_l q_lk and b_j = −ω_lk·l, evaluated by the fused
// epilogue asm.CosSum without storing the features. It is immutable and safe for concurrent use; Predict,
// Score, Probability and their batch forms allocate nothing. Probability is
// the logistic function of the score for Logistic, (1 + score)/2 clamped to
// [0, 1] for SquaredHinge (whose population minimiser is 2p − 1 on
// [−1, 1]), and NaN for Hinge, which estimates only the sign of 2p − 1.
// Obtain one from Fit or Load; a Model must not be copied.
//
// A multiclass model (Task Multiclass) shares the L landmark features
// among the classes and has one read-out per class, c_m·φ(z) + c₀_m:
// Predict is the class of the largest, Probabilities their softmax (the
// multinomial logistic regression it was fitted with), Score the margin
// of the best class over the runner-up, Probability NaN. It computes the
// L·K cosines once per row (asm.CosAffine), then φ and one dot product
// per class, allocating nothing.
// Config returns the configuration it was fitted with, defaults resolved:
// Landmarks, K, Gamma, Beta, C and Loss are never zero.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model (Fit fills it as it goes).
type body struct {
	cfg       Config    // resolved: no zero defaults, no Progress
	landmarks []float64 // L×d, standardised coordinates
	w         []float64 // d×J row-major: frequency j is column j
	q         []float64 // L×K pseudo-posterior weights
	coef      []float64 // L weights of the linear classifier (M×L for M classes)
	bias      float64
	biases    []float64 // the M intercepts of a multiclass model, nil otherwise

	b, a []float64 // derived: the expansion's phases and amplitudes (len J)
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: methodName, Methods: []string{methodName}, Version: modelVersion}
}

// NewWork: a binary model's CosSum needs no scratch; a multiclass one
// needs the J cosines, the L features and the M class scores of a row.
func (m *body) NewWork() any {
	if m.biases == nil {
		return nil
	}
	return make([]float64, len(m.b)+m.cfg.Landmarks+len(m.biases))
}

func (m *body) Score(z []float64, w any) float64 {
	if m.biases == nil {
		return asm.CosSum(z, m.w, len(m.b), m.b, m.a) + m.bias
	}
	s := w.([]float64)[len(m.b)+m.cfg.Landmarks:]
	m.Scores(s, z, w)
	return vec.Margin(s)
}

// Scores writes the M class scores c_m·φ(z) + c₀_m of a multiclass model
// (kit.MultiScorer): the cosines as Fit computed them, φ by
// represent, and dot products rounded term by term (the same bits
// everywhere).
func (m *body) Scores(dst, z []float64, w any) {
	J, L := len(m.b), m.cfg.Landmarks
	buf := w.([]float64)
	cos, phi := buf[:J], buf[J:J+L]
	asm.CosAffine(cos, z, m.w, m.b, J, 1)
	represent(phi, cos, m.q, m.cfg.K)
	for k, b := range m.biases {
		dst[k] = xmath.DotRound(m.coef[k*L:(k+1)*L], phi) + b
	}
}

// FileVersion is 1 for a binary model (the bytes of the builds before
// multiclass), 2 for a multiclass one.
func (m *body) FileVersion() int {
	if m.biases != nil {
		return 2
	}
	return 1
}

func (m *body) Configuration() kit.Validator { return &m.cfg }

func (m *body) Encode(e *kit.Encoder) error {
	e.Array("landmarks", m.landmarks)
	e.Array("w", m.w)
	e.Array("q", m.q)
	e.Array("coef", m.coef)
	if m.biases != nil {
		e.Array("biases", m.biases)
	} else {
		e.Meta("bias", m.bias)
	}
	return nil
}

func (m *body) Decode(dec *kit.Decoder) error {
	cfg := m.cfg
	d := dec.Inputs
	switch {
	case dec.Task != cfg.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, dec.Task)
	case len(dec.Classes) > 0 && dec.Version < 2:
		return fmt.Errorf("a multiclass model of version %d (multiclass models are version 2)", dec.Version)
	case !reflect.DeepEqual(cfg, cfg.resolved(d)) || cfg.Gamma == 0:
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	}
	L, K := cfg.Landmarks, cfg.K
	J := L * K // ≤ maxFeatures (Validate)
	if d > math.MaxInt/8/J {
		return fmt.Errorf("%d inputs × %d frequencies overflow", d, J)
	}
	m.cfg = cfg
	nc := len(dec.Classes) // 0 for a binary model
	m.landmarks, m.w, m.q = dec.Array("landmarks", L*d), dec.Array("w", d*J), dec.Array("q", J)
	if nc > 0 {
		m.coef, m.biases = dec.Array("coef", nc*L), dec.Array("biases", nc)
	} else {
		m.coef, m.bias = dec.Array("coef", L), dec.Meta("bias")
	}
	if err := dec.Err(); err != nil {
		return err
	}
	m.b = phases(m.w, m.landmarks, d, L, K)
	if nc == 0 {
		m.a = amplitudes(m.coef, m.q, K)
	}
	dec.Link = cfg.link()
	return nil
}

// link is the Probability rule of the loss.
func (c Config) link() learners.Link {
	switch c.Loss {
	case Logistic:
		return kit.Logistic
	case SquaredHinge:
		return kit.Clamped
	}
	return kit.NoProbability
}

func init() {
	kit.DefineWeighted(methodName, "PBRFF: landmarks with pseudo-posterior-weighted random Fourier features + linear SVM or (multiclass) multinomial logistic regression (Letarte et al. 2019)", []learners.Task{learners.Binary, learners.Multiclass}, func() *Config { return new(Config) }, Fit, FitWeighted, Load)
}
