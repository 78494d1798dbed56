package srff

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

func init() {
	learners.Register(learners.Method{
		Name:      Name,
		Doc:       "Sparse random Fourier features: ridge regression with per-input scales γ learned on a simplex (variable selection)",
		NewConfig: func() any { return new(Config) },
		Fit: func(ctx context.Context, X featmap.Matrix, y []float64, cfg any, p learners.Progress) (learners.Model, error) {
			c, ok := cfg.(*Config)
			if !ok {
				return nil, fmt.Errorf("srff: config is %T, want *srff.Config", cfg)
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
