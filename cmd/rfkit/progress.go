package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/rfkit/rfkit/learners"
)

// isTerminal reports whether w is a terminal; tests replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress is a progress bar on stderr, or nothing (a nil *progress) when
// stderr is not a terminal or -quiet was given. Its methods are called on
// the goroutine that runs the fit.
type progress struct {
	bar *progressbar.ProgressBar
}

// newProgress returns a bar of max steps described by desc, or nil.
func newProgress(w io.Writer, quiet bool, desc string, max int) *progress {
	if quiet || !isTerminal(w) {
		return nil
	}
	return &progress{bar: progressbar.NewOptions(max,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)}
}

// event is a learners.Progress that moves the bar to the round of e,
// resizing it to the fit's number of rounds.
func (p *progress) event(e learners.Event) error {
	if p == nil {
		return nil
	}
	if e.Rounds > 0 && p.bar.GetMax() != e.Rounds {
		p.bar.ChangeMax(e.Rounds)
	}
	return p.bar.Set(e.Round)
}

// step advances the bar by one.
func (p *progress) step() {
	if p != nil {
		p.bar.Add(1)
	}
}

// done fills the bar (ok) or leaves it where it stopped (an error line
// follows on stderr); either ends the bar's line.
func (p *progress) done(ok bool) {
	if p == nil {
		return
	}
	if ok {
		p.bar.Finish()
		return
	}
	p.bar.Exit()
}

// callback returns p.event as a learners.Progress, nil when there is no bar
// (so the learner skips the calls).
func (p *progress) callback() learners.Progress {
	if p == nil {
		return nil
	}
	return p.event
}
