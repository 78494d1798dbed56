package kernel

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/rfkit/rfkit/featmap"
)

// countCtx is a context whose Err reports cancellation from its (after+1)th
// call on, counting the calls: how often a loop checks it.
type countCtx struct {
	context.Context
	after int64
	calls atomic.Int64
}

func (c *countCtx) Err() error {
	if c.calls.Add(1) > c.after {
		return context.Canceled
	}
	return nil
}

// TestFitChecksContext: the kernel matrix and the Cholesky factorisation
// check the context every few rows (a fit on the 2000-row default
// subsample ignored Ctrl-C for seconds), for every loss.
func TestFitChecksContext(t *testing.T) {
	const m, d = 640, 3
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, m*d), make([]float64, m)
	for i := range y {
		for j := range d {
			x[i*d+j] = r.NormFloat64()
		}
		y[i] = float64(2*(i%2) - 1)
	}
	X := featmap.Dense(m, d, x)
	for _, loss := range []Loss{Ridge, Logistic, Hinge} {
		c := &countCtx{Context: context.Background(), after: 1 << 40}
		if _, err := Fit(c, X, y, Config{Loss: loss}); err != nil {
			t.Fatal(err)
		}
		if n := c.calls.Load(); n < m/64 {
			t.Errorf("%s: %d checks of the context in a fit of %d rows, want at least %d", loss, n, m, m/64)
		}
		// Cancelled after the prologue's checks: the fit stops inside.
		c = &countCtx{Context: context.Background(), after: 3}
		if _, err := Fit(c, X, y, Config{Loss: loss}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", loss, err)
		}
	}
}
