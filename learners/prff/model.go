package prff

import (
	"fmt"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// The model file is linrf.Version's, "w" holding the d×D learned
// frequencies, plus the array "losses" (D final mini-batch Gram losses);
// the config holds the resolved γ and α. The learned frequencies are
// stored, never re-learned.

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted PRFF model: score(x) = coef·z((x − mean)/scale) + bias,
// z the learned map, evaluated by the fused epilogue
// featmap.RFF.CombineRow. It is
// immutable and safe for concurrent use; Predict, Score, Probability and
// their batch forms allocate nothing. Probability is the logistic function
// of the score for the logistic loss, (1 + score)/2 clamped to [0, 1] for
// ridge on ±1 labels. Obtain one from Fit or Load; a Model must not be
// copied.
//
// A multiclass model (Task Multiclass) has one read-out per class,
// coef_k·z + bias_k: Predict is the class of the largest, Probabilities
// their softmax (multinomial logistic regression), Score the margin of the
// best over the runner-up. A NaN input is a missing value (see
// Predict and Config.Missing).
// Config returns the configuration it was fitted with, defaults resolved:
// Gamma and Alpha hold the values used.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Map returns the learned feature map, which acts on standardised inputs
// (x − mean)/scale.
func (m *Model) Map() *Map { return m.Body().fmap }

// Coef returns the linear model's weights (len D) and intercept; do not
// modify the slice.
func (m *Model) Coef() ([]float64, float64) { return m.Body().Coef, m.Body().Bias }

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

type body struct {
	cfg Config
	linrf.Head
	fmap *Map
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: methodName, Methods: []string{methodName}, Version: linrf.Version}
}

func (b *body) Configuration() kit.Validator { return &b.cfg }

func (b *body) Encode(e *kit.Encoder) error {
	err := b.Head.Encode(e)
	e.Array("losses", b.fmap.losses) // after the Head's arrays: the order is the file's
	return err
}

func (b *body) Decode(d *kit.Decoder) error {
	cfg := b.cfg
	if cfg.Features == 0 || cfg.Gamma == 0 || cfg.Alpha == 0 || cfg.Batch == 0 ||
		cfg.MaxIter == 0 || cfg.Tol == 0 || cfg.Lambda == 0 || cfg.Loss == "" {
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	}
	if err := b.Head.DecodeFor(d, cfg.Task, cfg.Loss, cfg.Features); err != nil {
		return err
	}
	losses := d.Array("losses", cfg.Features)
	b.fmap = &Map{rff: b.RFF, gamma: cfg.Gamma, alpha: cfg.Alpha, losses: losses}
	return d.Err()
}

func init() {
	kit.DefineWeighted(methodName, "Pseudo-random Fourier features: Gaussian RFF frequencies learned greedily to fit the Gram matrix, + logistic or ridge regression", []learners.Task{learners.Binary, learners.Multiclass, learners.Regression},
		func() *Config { return new(Config) }, Fit, FitWeighted, Load)
}
