package kit

import (
	"fmt"
	"math"

	"github.com/rfkit/rfkit/learners"

	"context"
	"time"
)

// Rounds reports the rounds of one Fit: the timer starts when it is made,
// and End sends each finished round's Event and checks ctx (EndRound), so a
// learner's Fit does not keep its own start time and report function.
type Rounds struct {
	ctx    context.Context
	p      learners.Progress
	pkg    string // the error prefix
	method string // Event.Method
	n      int    // Event.Rounds
	start  time.Time
}

// NewRounds starts the clock of a Fit of n rounds reporting to p; method is
// Event.Method and pkg the prefix of the errors. n may be 0 until
// SetTotal (or OnlineBase.Epochs) sets it, for a Fit that knows its
// number of rounds only once the defaults are resolved.
func NewRounds(ctx context.Context, p learners.Progress, pkg, method string, n int) *Rounds {
	return &Rounds{ctx: ctx, p: p, pkg: pkg, method: method, n: n, start: time.Now()}
}

// Context is the Fit's context, for a long round that checks it inside.
func (r *Rounds) Context() context.Context { return r.ctx }

// SetTotal sets the number of rounds (Event.Rounds).
func (r *Rounds) SetTotal(n int) { r.n = n }

// End reports that round (1-based) is done with the training objective
// loss (NaN when the round has none), then checks ctx; either error is
// wrapped as EndRound wraps it.
func (r *Rounds) End(round int, loss float64) error {
	e := learners.Event{Method: r.method, Round: round, Rounds: r.n, Loss: loss, Elapsed: time.Since(r.start)}
	return EndRound(r.ctx, r.p, r.pkg, e)
}

// Report calls p with e (nothing when p is nil) and wraps its error with the
// round at which it stopped training.
func Report(p learners.Progress, e learners.Event) error {
	if p == nil {
		return nil
	}
	if err := p(e); err != nil {
		return fmt.Errorf("stopped by progress callback after round %d of %d: %w", e.Round, e.Rounds, err)
	}
	return nil
}

// EndRound ends a round of training: it reports e (Report) and then checks
// ctx, either error wrapped as "pkg: …" (pkg the learner's error prefix).
func EndRound(ctx context.Context, p learners.Progress, pkg string, e learners.Event) error {
	if err := Report(p, e); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", pkg, err)
	}
	return nil
}

// On reports whether the option t is on, def being its default.
func On(t learners.Toggle, def bool) bool {
	switch t {
	case learners.Enabled:
		return true
	case learners.Disabled:
		return false
	}
	return def
}

// DecodeLabel maps a score to an original label of l: Pos when score ≥ 0 (a score of
// exactly 0 counts as positive), Neg when score < 0, NaN when score is NaN.
func DecodeLabel(l learners.Labels, score float64) float64 {
	switch {
	case score >= 0:
		return l.Pos
	case score < 0:
		return l.Neg
	}
	return math.NaN()
}

// EncodeLabel maps an original label of l to ±1; other values are an error.
func EncodeLabel(l learners.Labels, v float64) (float64, error) {
	switch v {
	case l.Pos:
		return 1, nil
	case l.Neg:
		return -1, nil
	}
	return 0, fmt.Errorf("label %v is neither %v nor %v", v, l.Neg, l.Pos)
}
