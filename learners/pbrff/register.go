package pbrff

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

func init() {
	learners.Register(learners.Method{
		Name:      Name,
		Doc:       "PBRFF: landmarks with pseudo-posterior-weighted random Fourier features + linear SVM (Letarte et al. 2019)",
		NewConfig: func() any { return new(Config) },
		Fit: func(ctx context.Context, X featmap.Matrix, y []float64, cfg any, p learners.Progress) (learners.Model, error) {
			c, ok := cfg.(*Config)
			if !ok {
				return nil, fmt.Errorf("pbrff: config is %T, want *pbrff.Config", cfg)
			}
			cc := *c
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
			return m, nil
		},
	})
}
