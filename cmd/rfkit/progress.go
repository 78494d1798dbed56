package main

import (
	"fmt"
	"io"
	"os"
	"sync"
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

// progressEvery is the interval of the progress lines written when stderr
// is not a terminal (a log file, a CI job); tests shorten it.
var progressEvery = 5 * time.Second

// progress shows how a long command advances on stderr: a bar on a
// terminal; otherwise, for a log, a line every progressEvery (nothing for
// a command that ends sooner), so a fit of minutes is not silent. A nil
// *progress (-quiet) shows nothing. Its methods are called on the goroutine
// that runs the fit; the lines are written by a ticker goroutine.
type progress struct {
	bar *progressbar.ProgressBar

	// Line mode.
	w          io.Writer
	desc       string
	start      time.Time
	mu         sync.Mutex
	round, max int
	stop       chan struct{}
	stopped    sync.WaitGroup
}

// newProgress returns a progress display of max steps described by desc,
// or nil with quiet.
func newProgress(w io.Writer, quiet bool, desc string, max int) *progress {
	if quiet {
		return nil
	}
	if !isTerminal(w) {
		p := &progress{w: w, desc: desc, start: time.Now(), max: max, stop: make(chan struct{})}
		p.stopped.Add(1)
		go p.lines()
		return p
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

// lines writes a progress line every progressEvery until stop closes.
func (p *progress) lines() {
	defer p.stopped.Done()
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			round, max := p.round, p.max
			p.mu.Unlock()
			elapsed := time.Since(p.start).Round(time.Second)
			if round > 0 {
				fmt.Fprintf(p.w, "rfkit %s: %d of %d done, %v elapsed\n", p.desc, round, max, elapsed)
			} else {
				fmt.Fprintf(p.w, "rfkit %s: running, %v elapsed\n", p.desc, elapsed)
			}
		}
	}
}

// set records round of max (line mode).
func (p *progress) set(round, max int) {
	p.mu.Lock()
	p.round = round
	if max > 0 {
		p.max = max
	}
	p.mu.Unlock()
}

// event is a learners.Progress that moves the display to the round of e,
// resizing it to the fit's number of rounds.
func (p *progress) event(e learners.Event) error {
	if p == nil {
		return nil
	}
	if p.bar == nil {
		p.set(e.Round, e.Rounds)
		return nil
	}
	if e.Rounds > 0 && p.bar.GetMax() != e.Rounds {
		p.bar.ChangeMax(e.Rounds)
	}
	return p.bar.Set(e.Round)
}

// step advances the display by one.
func (p *progress) step() {
	switch {
	case p == nil:
	case p.bar == nil:
		p.mu.Lock()
		p.round++
		p.mu.Unlock()
	default:
		p.bar.Add(1)
	}
}

// done fills the bar (ok) or leaves it where it stopped (an error line
// follows on stderr); either ends the bar's line. In line mode it stops
// the lines before the command writes anything else.
func (p *progress) done(ok bool) {
	switch {
	case p == nil:
	case p.bar == nil:
		close(p.stop)
		p.stopped.Wait()
	case ok:
		p.bar.Finish()
	default:
		p.bar.Exit()
	}
}

// callback returns p.event as a learners.Progress, nil when nothing is
// shown (so the learner skips the calls).
func (p *progress) callback() learners.Progress {
	if p == nil {
		return nil
	}
	return p.event
}
