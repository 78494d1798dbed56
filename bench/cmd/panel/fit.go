package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/internal/cputime"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
	"github.com/rfkit/rfkit/learners/gbrff"

	// Every learner, registered for learners.Methods (the same list as the
	// rfkit command's; TestEveryLearnerLinked checks it).
	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/kernel"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/nogd"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rks"
	_ "github.com/rfkit/rfkit/learners/rrf"
	_ "github.com/rfkit/rfkit/learners/srff"
)

// regressionOnly reports whether a learner's task parameter offers no
// binary task (srff, whose zero Task stands for regression): the rfkit
// command refuses it on binary labels, and so does the panel.
func regressionOnly(m learners.Method) bool {
	for _, p := range learners.Params(m.NewConfig()) {
		if p.Name == "task" {
			return !strings.Contains(p.Doc, learners.Binary.String())
		}
	}
	return false
}

// fits reports whether learner m fits task t at its defaults, as the
// rfkit command decides it.
func fits(m learners.Method, t learners.Task) bool {
	if t == learners.Binary && regressionOnly(m) {
		return false
	}
	return slices.Contains(m.Tasks, t)
}

// selectLearners parses -learners (comma-separated names; empty: every
// registered learner), sorted by name.
func selectLearners(list string) ([]learners.Method, error) {
	all := learners.Methods()
	if strings.TrimSpace(list) == "" {
		return all, nil
	}
	var out []learners.Method
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(strings.ToLower(name))
		if name == "" {
			continue
		}
		m, err := learners.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("-learners: %w", err)
		}
		if !slices.ContainsFunc(out, func(o learners.Method) bool { return o.Name == name }) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-learners %q: no learner", list)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// defaultConfig is the learner's zero Config for task t: only the task is
// set, as `rfkit train -task` sets it.
func defaultConfig(m learners.Method, t learners.Task) (any, error) {
	cfg := m.NewConfig()
	if t != learners.Binary {
		if err := learners.SetParam(cfg, "task", t.String()); err != nil {
			return nil, fmt.Errorf("%s: task %s: %w", m.Name, t, err)
		}
	}
	return cfg, nil
}

// job is one learner on one split of one set.
type job struct {
	m     learners.Method
	set   panelSet
	ds    *dataset.Dataset
	split split
	cap   time.Duration // CPU-time limit of the fit (0: none)
}

// run fits the job's learner at its defaults on the training rows, times
// the fit in process CPU seconds (the caller runs one fit at a time, with
// GOMAXPROCS as -procs sets it), and scores the test rows: accuracy and log
// loss (classification; log loss where the model has probabilities) or
// RMSE, and the one-row Predict latency. A fit error or a time-out is in
// the record, not returned; only a cancelled ctx is.
func (j *job) run(ctx context.Context) (*record, error) {
	r := &record{Learner: j.m.Name, Source: "rfkit", Set: j.set.Name, Task: j.set.Task.String(), Split: j.split.Seed,
		NTrain: len(j.split.Train), NTest: len(j.split.Test), Procs: runtime.GOMAXPROCS(0), CapS: j.cap.Seconds()}
	train, test := j.ds.Subset(j.split.Train), j.ds.Subset(j.split.Test)
	cfg, err := defaultConfig(j.m, j.set.Task)
	if err != nil {
		r.Error = err.Error()
		return r, nil
	}
	var st *gbrff.FitStats
	if c, ok := cfg.(*gbrff.Config); ok {
		st = new(gbrff.FitStats)
		c.Stats = st
	}
	runtime.GC() // the previous job's garbage is not this fit's work
	cpu0, wall0 := cputime.Process(), time.Now()
	fctx, stop := withCPULimit(ctx, cpu0, j.cap)
	model, err := j.m.Fit(fctx, train.Matrix(), train.Y, cfg, nil)
	r.FitCPU, r.FitWall = (cputime.Process() - cpu0).Seconds(), time.Since(wall0).Seconds()
	capped := errors.Is(context.Cause(fctx), errCapped)
	stop()
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil && capped:
		r.TimedOut = true
		return r, nil
	case err != nil:
		r.Error = err.Error()
		return r, nil
	}
	if st != nil {
		r.Stats = map[string]float64{"rounds": float64(st.Rounds), "freq_evals": float64(st.FreqEvals),
			"lbfgs_iters": float64(st.LBFGSIters), "passes": float64(st.Passes), "sub_rows": float64(st.SubRows)}
	}
	rep, err := cv.EvaluateContext(context.Background(), model, test.Matrix(), test.Y, nil)
	if err != nil {
		r.Error = "evaluate: " + err.Error()
		return r, nil
	}
	if j.set.Task == learners.Regression {
		r.RMSE = num(rep.RMSE)
	} else {
		r.Accuracy, r.LogLoss = num(rep.Accuracy), num(rep.LogLoss)
	}
	r.PredictNs = predictLatency(model, test)
	return r, nil
}

// errCapped is the cause of a fit's cancellation at its CPU limit.
var errCapped = errors.New("the fit reached its CPU-time limit")

// withCPULimit returns a context that is cancelled (cause errCapped) once
// the process has spent limit of CPU time since cpu0 (checked every
// 100 ms; 0: no limit), and the function that releases it.
func withCPULimit(ctx context.Context, cpu0, limit time.Duration) (context.Context, func()) {
	fctx, cancel := context.WithCancelCause(ctx)
	if limit <= 0 {
		return fctx, func() { cancel(nil) }
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if cputime.Process()-cpu0 > limit {
					cancel(errCapped)
					return
				}
			}
		}
	}()
	return fctx, func() { close(done); cancel(nil) }
}

// predictLatency is Model.Predict's cost per row on the test rows, in
// process CPU time (steadier than wall time on a shared machine; the
// caller runs one thing at a time): the median of five rounds, each
// predicting rows in turn, 256 at a time, for at least 5 ms of CPU.
func predictLatency(m learners.Model, test *dataset.Dataset) float64 {
	sink := 0.0
	rates := make([]float64, 0, 5)
	i := 0
	for range 5 {
		calls, start := 0, cputime.Process()
		for calls == 0 || cputime.Process()-start < 5*time.Millisecond {
			for range 256 {
				sink += m.Predict(test.Row(i))
				i = (i + 1) % test.N
				calls++
			}
		}
		rates = append(rates, float64((cputime.Process()-start).Nanoseconds())/float64(calls))
	}
	_ = sink
	slices.Sort(rates)
	return rates[len(rates)/2]
}
