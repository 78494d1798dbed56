package kit

import (
	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"

	"context"
	"fmt"
)

// checkSizeCtx is CheckSize with the bound of ctx.
func checkSizeCtx(ctx context.Context, pkg string, cfg any, y []float64, d int) error {
	if err := learners.CheckSize(pkg, cfg, y, d, limit.MaxSize(ctx)); err != nil {
		return fmt.Errorf("%w (learners.WithMaxSize raises it)", err)
	}
	return nil
}
