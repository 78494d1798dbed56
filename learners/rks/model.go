package rks

import (
	"fmt"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// The model file is linrf.Version's: the arrays "mean", "scale" (d each:
// the input standardisation), "w" (d×D row-major frequencies), "b" (D
// phases), "coef" (D weights, K×D for a multiclass model), meta "bias" (or
// the array "biases" of the K intercepts). The frequencies are stored,
// never re-drawn from the seed.
// With a Nyström Map (config "Map"), "landmarks" (D×d, standardised)
// replaces "w" and "b", and Load rebuilds the map's eigendecomposition from
// them (the same bits; O(D³)); older readers reject such files (no array
// "w").

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted RKS model: score(x) = coef·z((x − mean)/scale) + bias,
// evaluated by the fused epilogue featmap.RFF.CombineRow (for a Nyström
// Map: the features, then a dot product in index order), one read-out per
// class for a multiclass model (multinomial logistic regression).
// Probability follows the loss: logistic, or (1 + score)/2 clamped for
// ridge on ±1 labels. Obtain one from Fit or Load.
// It is immutable and safe for concurrent use; Predict and Score allocate
// nothing; a NaN input is a missing value (see Predict); a Model must not
// be copied.
// Config returns the configuration it was fitted with, defaults resolved:
// Features, Gamma, Lambda and Loss are never zero.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

// body is the learner's part of a Model.
type body struct {
	cfg Config
	linrf.Head
	nys *featmap.Nystrom // the Nyström maps (then Head.RFF is nil)
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: methodName, Methods: []string{methodName}, Version: linrf.Version}
}

func (b *body) Configuration() kit.Validator { return &b.cfg }

func (b *body) Encode(e *kit.Encoder) error {
	if b.nys != nil {
		b.encodeNystrom(e)
		return nil
	}
	return b.Head.Encode(e)
}

func (b *body) Decode(d *kit.Decoder) error {
	cfg := b.cfg
	if cfg.Features == 0 || cfg.Gamma == 0 || cfg.Lambda == 0 || cfg.Loss == "" {
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	}
	if cfg.Map.nystrom() {
		if cfg.Task != d.Task {
			return fmt.Errorf("config task %v, header task %v", cfg.Task, d.Task)
		}
		d.Link = linrf.Link(cfg.Loss)
		return b.decodeNystrom(d)
	}
	return b.Head.DecodeFor(d, cfg.Task, cfg.Loss, cfg.Features)
}

func init() {
	kit.DefineWeighted(methodName, "Random Kitchen Sinks: Gaussian random Fourier features + logistic or ridge regression", []learners.Task{learners.Binary, learners.Multiclass, learners.Regression},
		func() *Config { return new(Config) }, Fit, FitWeighted, Load)
}
