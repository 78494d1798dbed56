package rfselect

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/linrf"
)

// The model file (method "eerf" or "lkrf", the Selection) is
// linrf.Version's, "w" holding the frequencies of the selected features.

//go:generate go run ../../internal/tools/modelmethods

// Model is a fitted EERF or LKRF model, scored as rks.Model is on the
// selected features. Obtain one from Fit or Load.
// It is immutable and safe for concurrent use; Predict and Score allocate
// nothing; a NaN input is a missing value (see Predict); a Model must not
// be copied.
// Config returns the configuration it was fitted with, defaults resolved:
// Selection, Features, Candidates, Gamma, Rho, Lambda and Loss are never
// zero.
type Model struct {
	kit.ConfiguredBase[Config, body, *body]
}

// Load decodes a model file written by MarshalBinary. Corrupt, truncated
// or hostile input gives an error wrapping learners.ErrCorrupt, never a
// panic; memory use is proportional to len(data).
func Load(data []byte) (*Model, error) { return kit.Unmarshal[Model](data) }

type body struct {
	cfg Config
	linrf.Head
}

func (*body) Spec() kit.Spec {
	return kit.Spec{Name: "rfselect", Methods: []string{string(EERFSelection), string(LKRFSelection)}, Version: linrf.Version}
}

func (b *body) Method() string { return string(b.cfg.Selection) }

func (b *body) Configuration() kit.Validator { return &b.cfg }

func (b *body) Decode(d *kit.Decoder) error {
	cfg := b.cfg
	switch {
	case cfg.Selection == "" || cfg.Features == 0 || cfg.Candidates == 0 || cfg.Gamma == 0 || cfg.Rho == 0 || cfg.Lambda == 0 || cfg.Loss == "":
		return fmt.Errorf("config %+v has unresolved defaults", cfg)
	case string(cfg.Selection) != d.Method:
		return fmt.Errorf("config selection %q in a %q model", cfg.Selection, d.Method)
	}
	return b.Head.DecodeFor(d, cfg.Task, cfg.Loss, cfg.Features)
}

func init() {
	for _, sel := range []Selection{EERFSelection, LKRFSelection} {
		doc := "EERF: random Fourier features selected by energy |mean(y·cos(ω·x+b))| + logistic or ridge regression"
		if sel == LKRFSelection {
			doc = "LKRF: random Fourier features sampled from χ²-ball kernel-alignment weights (Sinha–Duchi) + logistic or ridge regression"
		}
		fitW := func(ctx context.Context, X featmap.Matrix, y, w []float64, c Config) (*Model, error) {
			if c.Selection == "" {
				c.Selection = sel
			}
			if c.Selection != sel {
				return nil, fmt.Errorf("rfselect: the %q method was given Selection %q", sel, c.Selection)
			}
			return FitWeighted(ctx, X, y, w, c)
		}
		fit := func(ctx context.Context, X featmap.Matrix, y []float64, c Config) (*Model, error) {
			return fitW(ctx, X, y, nil, c)
		}
		load := func(data []byte) (*Model, error) {
			m, err := Load(data)
			if err == nil && m.Config().Selection != sel {
				return nil, fmt.Errorf("rfselect: %w: a %q model given to the %q loader", learners.ErrCorrupt, m.Config().Selection, sel)
			}
			return m, err
		}
		kit.DefineWeighted(string(sel), doc, []learners.Task{learners.Binary, learners.Multiclass, learners.Regression}, func() *Config { return &Config{Selection: sel} }, fit, fitW, load)
	}
}
