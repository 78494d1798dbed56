// Command panel is the benchmark of record: every registered learner that
// fits the task, at its defaults (its zero Config through the learners
// registry, as `rfkit train` fits it), on the 16 binary sets of the GBRFF
// paper's Table 1, a9a, the four multiclass sets and the five regression
// sets of ../shared/datasets, on the same seeded 70/30 splits as
// XGBoost and scikit-learn's HistGradientBoosting at their defaults
// (bench/peers/panel.py). It writes one JSON line per learner × set ×
// split, so a run can be resumed and a report made from it, and the
// results page (bench/results/panel.md), whose headline table the README
// repeats.
//
// Usage (from the repository root; `make bench-panel` runs all three steps):
//
//	go run ./bench/cmd/panel -out bench/out/panel                  # fit, write splits and results
//	/usr/bin/python3 bench/peers/panel.py --dir bench/out/panel    # the peers on the same splits
//	go run ./bench/cmd/panel -out bench/out/panel -report -page bench/results/panel.md -readme README.md
//
//	go run ./bench/cmd/panel -splits 1 -sets table1 -learners gbrff2,rks   # a quick look
//
// Protocol, per set and split s (0 … -splits−1): a stratified 70/30 split
// (dataset.StratifiedSplit, seed s) of a classification set, a seeded
// uniform 70/30 split of a regression set, written to
// OUT/splits/SET.json, which the peers script reads. Each learner is fitted
// on the 70 % with its zero Config (only the task set for multiclass and
// regression sets), one fit at a time, with GOMAXPROCS -procs (default
// 1: one thread); fit CPU is the process's CPU time around Fit. On the 30 %:
// accuracy and log loss (where the model has probabilities;
// metrics.LogLoss, probabilities clipped at 1e-15) or RMSE, and the CPU
// time of Model.Predict on one row (the median of 5 rounds of at least
// 5 ms each).
//
// Flags:
//
//	-data DIR      the data sets (default ../shared/datasets); the page's check
//	               against the trivial predictor reads them, with -report too
//	-out DIR       splits and results (default bench/out/panel): OUT/splits/*.json,
//	               OUT/rfkit.jsonl (or rfkit-K-of-N.jsonl with -shard), the peers'
//	               OUT/peers.jsonl
//	-splits N      splits per set (default 5)
//	-sets LIST     set names and the groups table1, binary, multiclass,
//	               regression (default: all)
//	-learners LIST learners (default: every registered one; each runs on the
//	               sets whose task it fits)
//	-procs N       GOMAXPROCS during the fits (default 1)
//	-cap LIST      CPU-time limit of one fit: DUR for every learner and/or
//	               learner=DUR items (default 15m; 0 = none); a fit that hits
//	               it is stopped and recorded as timed out, a finding of the page
//	-shard K/N     run only the jobs i with i mod N = K (0-based), into
//	               OUT/rfkit-K-of-N.jsonl: N processes share the run (a job
//	               already in any OUT/rfkit*.jsonl is not run again)
//	-tag NAME      write the results to OUT/rfkit-NAME.jsonl instead: for
//	               processes sharing a run by -sets or -learners (each process
//	               needs its own file; the page reads them all)
//	-fresh         ignore the results already in the file (default: resume,
//	               reusing every record whose learner, set and split match;
//	               delete or -fresh after changing a learner)
//	-rev REV       the code's revision, stored in each record (make passes git's)
//	-work          instead of the panel, fit GBRFF2 at its defaults on the synthetic
//	               sources of the page's ω-search table (bench/peers.Classification
//	               at n = 10⁵, d = 20, seeds 1 and 7, and the make_classification
//	               CSVs bench/peers/panel.py --recipes OUT/recipes writes) into
//	               OUT/work.jsonl, then write the page
//	-report        fit nothing: write the page from OUT/*.jsonl
//	-page FILE     the results page (default OUT/panel.md)
//	-note TEXT     a sentence for the page's header: how the run was made when it
//	               was not `make bench-panel` alone
//	-readme FILE   also replace the headline section of FILE (README.md) with
//	               the page's
//
// Progress goes to stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "panel:", err)
		os.Exit(1)
	}
}

// options are the parsed flags.
type options struct {
	data, out     string
	splits        int
	sets          []panelSet
	learners      []learners.Method
	procs         int
	caps          map[string]time.Duration // learner → cap; "" for the others
	shard, shards int
	fresh, report bool
	work          bool
	rev           string
	page, readme  string
	note          string
	tag           string
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("panel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	var sets, lrn, caps, shard string
	fs.StringVar(&o.data, "data", "../shared/datasets", "data sets `DIR`")
	fs.StringVar(&o.out, "out", "bench/out/panel", "splits and results `DIR`")
	fs.IntVar(&o.splits, "splits", 5, "splits per set")
	fs.StringVar(&sets, "sets", "", "comma-separated sets or groups (table1, binary, multiclass, regression; default all)")
	fs.StringVar(&lrn, "learners", "", "comma-separated learners (default: every registered one)")
	fs.IntVar(&o.procs, "procs", 1, "GOMAXPROCS during the fits")
	fs.StringVar(&caps, "cap", "15m", "CPU-time limit of one fit: DUR and/or learner=DUR items (0: none)")
	fs.StringVar(&shard, "shard", "", "`K/N`: run every N-th job from K (0-based)")
	fs.StringVar(&o.tag, "tag", "", "write the results to OUT/rfkit-`NAME`.jsonl (for processes that share a run)")
	fs.BoolVar(&o.fresh, "fresh", false, "ignore the records already in the results file")
	fs.StringVar(&o.rev, "rev", "", "the code's revision, stored in each record")
	fs.BoolVar(&o.report, "report", false, "fit nothing; write the page from the results")
	fs.BoolVar(&o.work, "work", false, "fit GBRFF2 on the synthetic sources of the ω-search table (OUT/work.jsonl), then write the page")
	fs.StringVar(&o.page, "page", "", "the results page (default OUT/panel.md)")
	fs.StringVar(&o.readme, "readme", "", "also replace the headline section of this `FILE`")
	fs.StringVar(&o.note, "note", "", "a sentence for the page's header (how this run was made, when not by make bench-panel alone)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var err error
	switch {
	case o.splits < 1 || o.splits > 100:
		return nil, fmt.Errorf("-splits %d: want 1 … 100", o.splits)
	case o.procs < 1 || o.procs > 1024:
		return nil, fmt.Errorf("-procs %d: want 1 … 1024", o.procs)
	}
	if o.sets, err = selectSets(sets); err != nil {
		return nil, err
	}
	if o.learners, err = selectLearners(lrn); err != nil {
		return nil, err
	}
	if o.caps, err = parseCaps(caps); err != nil {
		return nil, err
	}
	if o.shard, o.shards, err = parseShard(shard); err != nil {
		return nil, err
	}
	if o.tag != "" && (strings.ContainsAny(o.tag, `/\`) || o.tag != strings.TrimSpace(o.tag)) {
		return nil, fmt.Errorf("-tag %q: want a plain name", o.tag)
	}
	if o.page == "" {
		o.page = filepath.Join(o.out, "panel.md")
	}
	return o, nil
}

// parseCaps reads -cap: DUR (every learner) and learner=DUR items; 0 is
// no limit.
func parseCaps(s string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			name, val = "", item
		} else if _, err := learners.Lookup(name); err != nil {
			return nil, fmt.Errorf("-cap %s: %w", s, err)
		}
		d, err := time.ParseDuration(val)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("-cap %s: %q is not a duration ≥ 0 (e.g. 10m)", s, val)
		}
		out[name] = d
	}
	return out, nil
}

// capFor is a learner's fit limit.
func (o *options) capFor(name string) time.Duration {
	if d, ok := o.caps[name]; ok {
		return d
	}
	return o.caps[""]
}

// parseShard reads -shard K/N ("" is 0/1).
func parseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("-shard %q: want K/N with 0 ≤ K < N", s)
	}
	return k, n, nil
}

// resultsPath is this process's results file.
func (o *options) resultsPath() string {
	if o.tag != "" {
		return filepath.Join(o.out, "rfkit-"+o.tag+".jsonl")
	}
	if o.shards == 1 {
		return filepath.Join(o.out, "rfkit.jsonl")
	}
	return filepath.Join(o.out, fmt.Sprintf("rfkit-%d-of-%d.jsonl", o.shard, o.shards))
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	switch {
	case o.work:
		if err := fitWork(ctx, o, stderr); err != nil {
			return err
		}
	case !o.report:
		if err := fitAll(ctx, o, stderr); err != nil {
			return err
		}
	}
	return writePage(o, stderr)
}

// fitAll writes the split files and runs every job not already in the
// results file, split by split (so a short run has whole splits), set by
// set, learner by learner.
func fitAll(ctx context.Context, o *options, stderr io.Writer) error {
	if st, err := os.Stat(o.data); err != nil || !st.IsDir() {
		return fmt.Errorf("-data %s: no such directory (run from the repository root, or give -data)", o.data)
	}
	st, err := openStore(o.resultsPath(), o.fresh)
	if err != nil {
		return err
	}
	type loaded struct {
		ds     *dataset.Dataset
		splits []split
	}
	data := map[string]loaded{}
	for _, s := range o.sets {
		ds, err := loadSet(o.data, s)
		if err != nil {
			return err
		}
		sp, err := writeSplits(o.out, s, ds.Y, o.splits)
		if err != nil {
			return err
		}
		data[s.Name] = loaded{ds, sp}
	}
	var jobs []*job
	for seed := range o.splits {
		for _, s := range o.sets {
			for _, m := range o.learners {
				if fits(m, s.Task) {
					jobs = append(jobs, &job{m: m, set: s, ds: data[s.Name].ds, split: data[s.Name].splits[seed], cap: o.capFor(m.Name)})
				}
			}
		}
	}
	// Done: this file's records and those of the other rfkit*.jsonl files
	// of OUT (other shards, or runs of other learners), unless -fresh.
	done := st.recs
	if !o.fresh {
		if done, err = readResults(o.out, st.recs); err != nil {
			return err
		}
	}
	old := runtime.GOMAXPROCS(o.procs)
	defer runtime.GOMAXPROCS(old)
	var todo []*job
	for i, j := range jobs {
		if i%o.shards != o.shard {
			continue
		}
		if r, ok := done[fmt.Sprintf("%s|%s|%d", j.m.Name, j.set.Name, j.split.Seed)]; ok && reusable(r, j.cap) {
			continue
		}
		todo = append(todo, j)
	}
	fmt.Fprintf(stderr, "panel: %d sets × %d splits, %d learners: %d jobs, %d in this shard still to run (GOMAXPROCS %d) → %s\n",
		len(o.sets), o.splits, len(o.learners), len(jobs), len(todo), o.procs, o.resultsPath())
	start := time.Now()
	var cpu float64
	for i, j := range todo {
		r, err := j.run(ctx)
		if err != nil {
			return err
		}
		r.Rev, r.Time = o.rev, time.Now().UTC().Format(time.RFC3339)
		if err := st.add(r); err != nil {
			return fmt.Errorf("results: %w", err)
		}
		cpu += r.FitCPU
		fmt.Fprintf(stderr, "panel: [%d/%d %s] split %d %-14s %-7s %s\n", i+1, len(todo),
			time.Since(start).Round(time.Second), j.split.Seed, j.set.Name, j.m.Name, describe(r))
	}
	fmt.Fprintf(stderr, "panel: %d fits, %.0f fit CPU-s, %s wall\n", len(todo), cpu, time.Since(start).Round(time.Second))
	return nil
}

// reusable reports whether a stored record answers a job with fit limit
// cap: any finished record, and a time-out under a limit at least as long.
func reusable(r *record, cap time.Duration) bool {
	if !r.TimedOut {
		return true
	}
	return cap > 0 && r.CapS >= cap.Seconds()
}

// describe is a record's progress line.
func describe(r *record) string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("STOPPED at its limit: %.0f CPU-s (%.0f s wall)", r.FitCPU, r.FitWall)
	case r.Error != "":
		return "ERROR " + r.Error
	}
	var b strings.Builder
	if r.Accuracy != nil {
		fmt.Fprintf(&b, "acc %.4f ", *r.Accuracy)
	}
	if r.LogLoss != nil {
		fmt.Fprintf(&b, "logloss %.4f ", *r.LogLoss)
	}
	if r.RMSE != nil {
		fmt.Fprintf(&b, "rmse %.5g ", *r.RMSE)
	}
	fmt.Fprintf(&b, "fit %.3f CPU-s, predict %.0f ns", r.FitCPU, r.PredictNs)
	return b.String()
}

var errNoRecords = errors.New("no results: run the panel first")
