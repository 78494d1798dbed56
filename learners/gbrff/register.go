package gbrff

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

func init() {
	for _, v := range []struct{ name, doc string }{
		{VariantGBRFF2, "gradient boosting, one optimised random Fourier feature cos(ω·x − b) per round (Gautheron et al. 2020)"},
		{VariantGBRFF1, "gradient boosting, one kernel landmark of K random Fourier features per round (Gautheron et al. 2020)"},
	} {
		variant := v.name
		learners.Register(learners.Method{
			Name:      variant,
			Doc:       v.doc,
			NewConfig: func() any { return &Config{Variant: variant} },
			Fit: func(ctx context.Context, X featmap.Matrix, y []float64, cfg any, progress learners.Progress) (learners.Model, error) {
				c, ok := cfg.(*Config)
				if !ok {
					return nil, fmt.Errorf("gbrff: config is %T, want *gbrff.Config", cfg)
				}
				cc := *c
				if progress != nil {
					cc.Progress = progress
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
				return m, nil
			},
		})
	}
}
