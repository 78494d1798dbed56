package rfselect

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

func init() {
	for _, sel := range []Selection{EERFSelection, LKRFSelection} {
		doc := "EERF: random Fourier features selected by energy |mean(y·cos(ω·x+b))| + logistic or ridge regression"
		if sel == LKRFSelection {
			doc = "LKRF: random Fourier features sampled from χ²-ball kernel-alignment weights (Sinha–Duchi) + logistic or ridge regression"
		}
		learners.Register(learners.Method{
			Name:      string(sel),
			Doc:       doc,
			NewConfig: func() any { return &Config{Selection: sel} },
			Fit: func(ctx context.Context, X featmap.Matrix, y []float64, cfg any, p learners.Progress) (learners.Model, error) {
				c, ok := cfg.(*Config)
				if !ok {
					return nil, fmt.Errorf("rfselect: config is %T, want *rfselect.Config", cfg)
				}
				cc := *c
				if cc.Selection == "" {
					cc.Selection = sel
				}
				if cc.Selection != sel {
					return nil, fmt.Errorf("rfselect: the %q method was given Selection %q", sel, cc.Selection)
				}
				if p != nil {
					cc.Progress = p
				}
				m, err := Fit(ctx, X, y, cc)
				if err != nil {
					return nil, err // not a typed nil *Model inside the interface
				}
				return m, nil
			},
			Load: func(data []byte) (learners.Model, error) {
				m, err := Load(data)
				if err != nil {
					return nil, err
				}
				if string(m.cfg.Selection) != string(sel) {
					return nil, fmt.Errorf("rfselect: a %q model given to the %q loader", m.cfg.Selection, sel)
				}
				return m, nil
			},
		})
	}
}
