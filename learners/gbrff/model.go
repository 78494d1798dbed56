package gbrff

import (
	"fmt"
	"math"
	"reflect"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/xmath"
	"github.com/rfkit/rfkit/learners"
)

// modelVersion is the version of the arrays, written in the header.
//
// Version 1 arrays: "mean", "scale" (d each: the input standardisation),
// "w" (d×J row-major: the J frequencies as columns), "b" (J phases), "a"
// (J amplitudes); meta "h0" (the initial score) and "rounds". The method in
// the header is the variant, "gbrff2" or "gbrff1". The frequencies are
// stored, never re-drawn from the seed.
//
// Version 2 adds regression models (config Task "regression", header task
// regression, no labels; the same arrays). Binary models are still written
// as version 1 (FileVersion), byte for byte as before.
//
// Version 3 adds the meta "temperature" of a calibrated binary model
// (calibrate.go), which every version-3 binary file has. Uncalibrated binary models are still version 1.
const modelVersion = 5

// Version 4 adds multiclass models (header task multiclass with the K
// classes): "w" is d×(K·J), "b" and "a" K·J, class k's terms at
// [k·J, (k+1)·J), J = rounds (GBRFF2) or rounds·Config.K (GBRFF1, whose
// multiclass models came later in the same layout); the array "h0s" holds
// the K initial scores (meta "h0" is 0).
//
// Version 5 adds binary models of the default path: config fields
// GammaMin and Inputs, and, for a model whose inputs are encoded
// (encode.go), the meta "encoded" (the number E of encoded inputs) and
// the arrays "enc_src", "enc_kind", "enc_level", "enc_mean" and
// "enc_scale" (E each); "w" is then E×J. The meta "temperature" is the
// calibration's, as in version 3, or 0 for an uncalibrated model. A
// regression model with an input encoding (the default regression fit's)
// is version 5 too, with the same arrays and a "temperature" of 0.
//
// FileVersion is 1 for an uncalibrated binary model, 2 for a regression
// one, 3 for a calibrated binary one, 4 for a multiclass one, 5 for a
// binary one with a spread of widths or an input encoding and for a
// regression one with an input encoding.
func (m *body) FileVersion() int {
	switch {
	case m.cfg.Task == learners.Multiclass:
		return 4
	case m.enc != nil || m.cfg.GammaMin > 0 || m.cfg.Inputs != "":
		return 5
	case m.temp != nil:
		return 3
	case m.cfg.Task == learners.Binary:
		return 1
	}
	return 2
}

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted boosting model. Both variants reduce to a cosine
// expansion on the standardised input z = (x − mean)/scale:
//
//	H(x) = H⁰ + Σ_j a_j·cos(w_j·z + b_j)
//
// (GBRFF2: one term per round, w = ω, b = −b_t, a = α_t; GBRFF1: K terms
// per round, w = ω_k, b = −ω_k·p_t, a = α_t·q_k), evaluated by the fused
// epilogue asm.CosSum without storing the features. It is immutable and safe for concurrent use; Predict,
// Score, Probability and their batch forms allocate nothing. Score is H(x),
// an estimate of half the log-odds of the larger label. A binary model
// with a temperature a (Calibration) has Probability
// 1/(1 + exp(−a·Score(x))); without one, 1/(1 + exp(−2·Score(x))). A Model
// must not be copied. Config returns the configuration the model was
// fitted with, defaults resolved.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Rounds is the number of boosting rounds the model holds (fewer than T
// after early stopping).
func (m *Model) Rounds() int { return m.Body().rounds }

// Load decodes a GBRFF2 or GBRFF1 model written by MarshalBinary. Corrupt,
// truncated or hostile input gives an error wrapping learners.ErrCorrupt,
// never a panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	cfg    Config // resolved
	h0     float64
	w      []float64 // d×J row-major: w[k·J + j]
	b, a   []float64 // len J
	rounds int       // rounds kept
	temp   []float64 // the temperature a of a calibrated model (len 1), or nil
	h0s    []float64 // multiclass: the K initial scores (class k's terms are [k·J, (k+1)·J))

	enc *encoding // the input encoding (Config.Inputs "auto"), or nil

	// multiclass: each class's expansion as Scores reads it (setScoringMulti)
	mw, mb, ma [][]float64

	// The expansion as Score reads it (setScoring): J terms padded to
	// scoredTerms(J) with zero columns of w and zero b and a.
	wp, bp, ap []float64
}

// scoredTerms is the number of terms Score hands asm.CosSum for J terms:
// J rounded up to a multiple of 8. CosSum's vector loops take the terms
// eight at a time (AVX-512: 64 at a time, then the 2…7 groups of 8 left as
// one blocked body) and its pure-Go twin takes the rest one at a time,
// about as slow as a whole group each; at 100 terms, unpadded, the 4-term
// scalar tail made it about twice the time of 128. CPU time of one CosSum
// at d = 20 on one AVX-512 core: about 150 ns at 64 terms, 230 ns at 104,
// 270 ns at 128. Padding with terms of amplitude 0 leaves every lane sum
// the same bits: a padded term adds 0·cos(b + x·0) = ±0 to its lane, and
// x + ±0 = x for every lane value that can occur (a lane starts at +0, and
// a sum of floats is −0 only when both terms are −0).
func scoredTerms(J int) int {
	return (J + 7) / 8 * 8
}

// setScoring builds the padded copy of the expansion that Score reads.
func (m *body) setScoring() {
	J, d := len(m.b), 0
	if J > 0 {
		d = len(m.w) / J
	}
	Jp := scoredTerms(J)
	m.wp, m.bp, m.ap = make([]float64, d*Jp), make([]float64, Jp), make([]float64, Jp)
	for k := 0; k < d; k++ {
		copy(m.wp[k*Jp:k*Jp+J], m.w[k*J:(k+1)*J])
	}
	copy(m.bp, m.b)
	copy(m.ap, m.a)
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: "gbrff", Methods: []string{VariantGBRFF2, VariantGBRFF1}, Version: modelVersion}
}

func (m *body) Method() string { return m.cfg.Variant }

// NewWork is the scratch of Score: the encoded inputs of an encoded model.
func (m *body) NewWork() any {
	if m.enc == nil {
		return nil
	}
	k := m.enc.inputs()
	return &encWork{v: make([]float64, k), e: make([]float64, k)}
}

func (m *body) Score(z []float64, w any) float64 {
	if m.enc != nil {
		s := w.(*encWork)
		m.enc.apply(s.e, s.v, z)
		z = s.e
	}
	return m.h0 + asm.CosSum(z, m.wp, len(m.bp), m.bp, m.ap)
}

func (m *body) Configuration() kit.Validator { return &m.cfg }

func (m *body) Encode(e *kit.Encoder) error {
	e.Array("w", m.w)
	e.Array("b", m.b)
	e.Array("a", m.a)
	switch {
	case m.temp != nil:
		e.Meta("temperature", m.temp[0])
	case m.FileVersion() == 5:
		e.Meta("temperature", 0) // uncalibrated
	}
	if m.h0s != nil {
		e.Array("h0s", m.h0s)
	}
	if m.enc != nil {
		m.enc.encode(e)
	}
	e.Meta("h0", m.h0)
	e.Meta("rounds", float64(m.rounds))
	return nil
}

func (m *body) Decode(dec *kit.Decoder) error {
	cfg := m.cfg
	d := dec.Inputs
	switch {
	case !reflect.DeepEqual(cfg, cfg.resolved(max(d, 1))) || cfg.Variant != dec.Method:
		return fmt.Errorf("config %+v has unresolved defaults or another variant", cfg)
	case dec.Task != cfg.Task:
		return fmt.Errorf("config task %v, header task %v", cfg.Task, dec.Task)
	case dec.Version < 2 && cfg.Task != learners.Binary:
		return fmt.Errorf("a version-%d file holds binary models only", dec.Version)
	}
	rf := dec.Meta("rounds")
	var err error
	if err = dec.Err(); err != nil {
		return err
	}
	per := 1
	if cfg.Variant == VariantGBRFF1 {
		per = cfg.K
	}
	if rf != math.Trunc(rf) || rf < 0 || rf > float64(cfg.T) {
		return fmt.Errorf("rounds = %v with T = %d", rf, cfg.T)
	}
	rounds := int(rf)
	// J is counted in float64 first: with int 32 bits wide (386, wasm) a
	// hostile file's T·K would wrap before the size checks below.
	classes := 1
	if cfg.Task == learners.Multiclass {
		if dec.Version < 4 {
			return fmt.Errorf("a version-%d %s file with a multiclass model", dec.Version, cfg.Variant)
		}
		classes = len(dec.Classes)
	}
	if float64(rounds)*float64(per)*float64(classes) > math.MaxInt32 {
		return fmt.Errorf("%d rounds × %d terms × %d classes overflow", rounds, per, classes)
	}
	J := rounds * per * classes
	if dec.Version >= 5 && cfg.Task != learners.Multiclass && dec.Has(encArrays[0]) {
		if m.enc, err = decodeEncoding(dec, d); err != nil {
			return err
		}
		d = m.enc.inputs()
	}
	if J > 0 && d > math.MaxInt/8/J {
		return fmt.Errorf("%d inputs × %d terms overflow", d, J)
	}
	m.cfg, m.rounds = cfg, rounds
	m.w, m.b, m.a, m.h0 = dec.Array("w", d*J), dec.Array("b", J), dec.Array("a", J), dec.Meta("h0")
	if cfg.Task == learners.Multiclass {
		m.h0s = dec.Array("h0s", len(dec.Classes))
		if err := dec.Err(); err != nil {
			return err
		}
		m.setScoringMulti()
		return nil
	}
	if cfg.Task == learners.Binary {
		dec.Link = kit.HalfLogOdds
	}
	if dec.Version >= 3 && cfg.Task == learners.Binary {
		m.temp = []float64{dec.Meta("temperature")}
		if err := dec.Err(); err != nil {
			return err
		}
		if dec.Version >= 5 && m.temp[0] == 0 {
			m.temp = nil // uncalibrated
		} else if !(m.temp[0] > 0) || !xmath.Finite(m.temp[0]) {
			return fmt.Errorf("temperature = %v, want > 0", m.temp[0])
		}
	}
	if err := dec.Err(); err != nil {
		return err
	}
	m.setScoring()
	return nil
}

// newModel wraps a fitted body.
func newModel(m *body, labels learners.Labels, mean, scale []float64) *Model {
	m.setScoring()
	c := learners.Common{Task: learners.Binary, Labels: labels, Mean: mean, Scale: scale, Link: kit.HalfLogOdds}
	if m.cfg.Task == learners.Regression {
		c = learners.Common{Task: learners.Regression, Mean: mean, Scale: scale}
	}
	return kit.New[Model](c, m)
}

func init() {
	for _, v := range []struct{ name, doc string }{
		{VariantGBRFF2, "gradient boosting, one optimised random Fourier feature cos(ω·x − b) per round (Gautheron et al. 2020)"},
		{VariantGBRFF1, "gradient boosting, one kernel landmark of K random Fourier features per round (Gautheron et al. 2020)"},
	} {
		variant := v.name
		kit.DefineWeighted(variant, v.doc, []learners.Task{learners.Binary, learners.Multiclass, learners.Regression}, func() *Config { return &Config{Variant: variant} }, Fit, FitWeighted, Load)
	}
}
