package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/rfkit/rfkit/bench/internal/hostinfo"
	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/learners"
)

// The peers' learner names in the results (bench/peers/panel.py).
const (
	xgboost = "xgboost"
	histgb  = "histgb"
)

// cell is one learner on one set: its records over the splits.
type cell struct {
	ok     []*record // finished, in split order
	failed []*record // errors and time-outs
}

// mean is the mean of f over the finished splits (NaN if none, or if f is
// missing from one of them).
func (c *cell) mean(f func(*record) *float64) float64 {
	if c == nil || len(c.ok) == 0 {
		return math.NaN()
	}
	var s float64
	for _, r := range c.ok {
		v := f(r)
		if v == nil {
			return math.NaN()
		}
		s += *v
	}
	return s / float64(len(c.ok))
}

func accuracyOf(r *record) *float64 { return r.Accuracy }
func logLossOf(r *record) *float64  { return r.LogLoss }
func rmseOf(r *record) *float64     { return r.RMSE }
func fitCPUOf(r *record) *float64   { return &r.FitCPU }
func predictOf(r *record) *float64  { return &r.PredictNs }

// panel is the results arranged for the page.
type panel struct {
	cells    map[[2]string]*cell // (learner, set)
	learners []string            // peers, gbrff2, gbrff1, then by name
	sets     []panelSet          // table order, those with results
	splits   int                 // the most splits of any cell
	revs     []string
	last     string // the latest record's time
	cpu      float64
	note     string // -note
	// setSplits is the number of splits of each set on the page: those
	// every learner with results on the set has (finished or not), so
	// that the learners of a row are compared on the same splits.
	setSplits map[string]int
	dropped   int // records of splits left out by that rule
	// trivial holds the trivial predictor's scores for the page's check
	// against it (nil: no check on the page); trivialMissing are the sets
	// it could not score.
	trivial        trivialBySet
	trivialMissing []string
}

// lagging reports whether r's learner was left out of its set's common
// splits: it lacks one of them.
func lagging(recs map[string]*record, r *record, common map[int]bool) bool {
	for k := range common {
		if _, ok := recs[fmt.Sprintf("%s|%s|%d", r.Learner, r.Set, k)]; !ok {
			return true
		}
	}
	return false
}

// commonSplits returns, per set, the splits that every learner with a
// record on the set has a record for, leaving out of that rule a learner
// that lags far behind (fewer than half the splits of the set's best
// covered learner, e.g. a slow learner whose fits are still running): its
// cells keep their own splits and show how many.
func commonSplits(recs map[string]*record) map[string]map[int]bool {
	by := map[string]map[string]map[int]bool{} // set → learner → splits
	for _, r := range recs {
		if by[r.Set] == nil {
			by[r.Set] = map[string]map[int]bool{}
		}
		if by[r.Set][r.Learner] == nil {
			by[r.Set][r.Learner] = map[int]bool{}
		}
		by[r.Set][r.Learner][r.Split] = true
	}
	out := map[string]map[int]bool{}
	for set, ls := range by {
		most := 0
		for _, s := range ls {
			most = max(most, len(s))
		}
		var common map[int]bool
		for _, s := range ls {
			if 2*len(s) < most {
				continue // lagging
			}
			if common == nil {
				common = maps.Clone(s)
				continue
			}
			for k := range common {
				if !s[k] {
					delete(common, k)
				}
			}
		}
		out[set] = common
	}
	return out
}

func newPanel(recs map[string]*record) *panel {
	p := &panel{cells: map[[2]string]*cell{}, setSplits: map[string]int{}}
	common := commonSplits(recs)
	have := map[string]bool{}
	revs := map[string]bool{}
	keys := make([]string, 0, len(recs))
	for k := range recs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r := recs[k]
		if _, ok := lookupSet(r.Set); !ok {
			continue
		}
		if !common[r.Set][r.Split] && !lagging(recs, r, common[r.Set]) {
			p.dropped++
			continue
		}
		c := p.cells[[2]string{r.Learner, r.Set}]
		if c == nil {
			c = new(cell)
			p.cells[[2]string{r.Learner, r.Set}] = c
		}
		if r.ok() {
			c.ok = append(c.ok, r)
		} else {
			c.failed = append(c.failed, r)
		}
		p.splits = max(p.splits, len(c.ok)+len(c.failed))
		if !have[r.Learner] {
			have[r.Learner] = true
			p.learners = append(p.learners, r.Learner)
		}
		if r.Rev != "" {
			revs[r.Source+" "+r.Rev] = true
		}
		p.last = max(p.last, r.Time)
		p.cpu += r.FitCPU
	}
	for s, splits := range common {
		p.setSplits[s] = len(splits)
	}
	for _, c := range p.cells {
		sort.Slice(c.ok, func(i, j int) bool { return c.ok[i].Split < c.ok[j].Split })
	}
	rank := func(l string) int {
		return slices.Index([]string{xgboost, histgb, "gbrff2", "gbrff1"}, l) & 0xff
	}
	sort.Slice(p.learners, func(i, j int) bool {
		a, b := p.learners[i], p.learners[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		return a < b
	})
	for _, s := range panelSets {
		for _, l := range p.learners {
			if p.cells[[2]string{l, s.Name}] != nil {
				p.sets = append(p.sets, s)
				break
			}
		}
	}
	for r := range revs {
		p.revs = append(p.revs, r)
	}
	sort.Strings(p.revs)
	return p
}

// setsOf returns the panel's sets that pass keep.
func (p *panel) setsOf(keep func(panelSet) bool) []panelSet {
	var out []panelSet
	for _, s := range p.sets {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// learnersFor returns the learners with a cell on some set of sets.
func (p *panel) learnersFor(sets []panelSet) []string {
	var out []string
	for _, l := range p.learners {
		for _, s := range sets {
			if p.cells[[2]string{l, s.Name}] != nil {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// aggregate is a learner's statistic over sets: the mean (or sum) of its
// cell means, and how many of the sets it covers.
type aggregate struct {
	v     float64
	n, of int
}

func (a aggregate) format(f string) string {
	if a.n == 0 {
		return "–"
	}
	s := fmt.Sprintf(f, a.v)
	if a.n < a.of {
		s += fmt.Sprintf(" (%d/%d sets)", a.n, a.of)
	}
	return s
}

// over is agg of the cell means of f over sets (agg: "mean", "sum" or
// "geomean").
func (p *panel) over(l string, sets []panelSet, f func(*record) *float64, agg string) aggregate {
	a := aggregate{of: len(sets)}
	var vals []float64
	for _, s := range sets {
		if v := p.cells[[2]string{l, s.Name}].mean(f); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	a.n = len(vals)
	if a.n == 0 {
		return a
	}
	var sum float64
	for _, v := range vals {
		if agg == "geomean" {
			v = math.Log(v)
		}
		sum += v
	}
	switch agg {
	case "mean":
		a.v = sum / float64(a.n)
	case "sum":
		a.v = sum
	case "geomean":
		a.v = math.Exp(sum / float64(a.n))
	}
	return a
}

// atLeast counts the sets where l's mean accuracy is at least ref's.
func (p *panel) atLeast(l, ref string, sets []panelSet) string {
	k, n := 0, 0
	for _, s := range sets {
		a := p.cells[[2]string{l, s.Name}].mean(accuracyOf)
		b := p.cells[[2]string{ref, s.Name}].mean(accuracyOf)
		if math.IsNaN(a) || math.IsNaN(b) {
			continue
		}
		n++
		if a >= b {
			k++
		}
	}
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d", k, n)
}

// peerRatio is l's RMSE over the better peer's on one set.
func (p *panel) peerRatio(l string, s panelSet) float64 {
	best := math.NaN()
	for _, peer := range []string{xgboost, histgb} {
		if v := p.cells[[2]string{peer, s.Name}].mean(rmseOf); !math.IsNaN(v) && !(v >= best) {
			best = v
		}
	}
	return p.cells[[2]string{l, s.Name}].mean(rmseOf) / best
}

// medianPredict is the median over l's cells of the mean predict latency.
func (p *panel) medianPredict(l string) float64 {
	var v []float64
	for _, s := range p.sets {
		if x := p.cells[[2]string{l, s.Name}].mean(predictOf); !math.IsNaN(x) && x > 0 {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// The markers around the headline table, on the page and in the README.
const (
	headBegin = "<!-- panel headline: generated by bench/cmd/panel from bench/results/panel.md; do not edit -->"
	headEnd   = "<!-- end of panel headline -->"
)

// headline is the table the README repeats: per learner, the 16 Table-1
// sets' mean accuracy, mean log loss, sets at least XGBoost's, total fit
// CPU; the multiclass sets' mean accuracy; the regression sets' RMSE
// relative to the better peer; the median one-row predict latency.
func (p *panel) headline(w io.Writer) {
	t1 := p.setsOf(func(s panelSet) bool { return s.Table1 })
	mc := p.setsOf(func(s panelSet) bool { return s.Task == learners.Multiclass })
	rg := p.setsOf(func(s panelSet) bool { return s.Task == learners.Regression })
	fmt.Fprintf(w, "| learner | accuracy, %d binary sets | log loss | sets ≥ XGBoost | fit CPU-s | accuracy, %d multiclass sets | RMSE ÷ better peer's, %d regression sets | predict µs/row |\n",
		len(t1), len(mc), len(rg))
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|")
	for _, l := range p.learners {
		acc := p.over(l, t1, accuracyOf, "mean")
		acc.v *= 100
		ll := p.over(l, t1, logLossOf, "mean")
		cpu := p.over(l, t1, fitCPUOf, "sum")
		mca := p.over(l, mc, accuracyOf, "mean")
		mca.v *= 100
		ratio := aggregate{of: len(rg)}
		var logs float64
		for _, s := range rg {
			if r := p.peerRatio(l, s); !math.IsNaN(r) {
				logs += math.Log(r)
				ratio.n++
			}
		}
		if ratio.n > 0 {
			ratio.v = math.Exp(logs / float64(ratio.n))
		}
		ge := "–"
		if l != xgboost {
			ge = p.atLeast(l, xgboost, t1)
		}
		pred := "–"
		if v := p.medianPredict(l); !math.IsNaN(v) {
			pred = fmt.Sprintf("%.1f", v/1000)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", learnerName(l),
			acc.format("%.1f %%"), ll.format("%.3f"), ge, cpu.format("%.1f"), mca.format("%.1f %%"), ratio.format("%.3f"), pred)
	}
}

// learnerName is a learner's name in the tables.
func learnerName(l string) string {
	switch l {
	case xgboost:
		return "XGBoost"
	case histgb:
		return "HistGradientBoosting"
	}
	return "rfkit " + l
}

// shortName is a learner's column head in the per-set tables.
func shortName(l string) string {
	switch l {
	case xgboost:
		return "xgb"
	case histgb:
		return "hgb"
	}
	return l
}

// perSet writes a table of sets × learners of f's split mean (scale,
// format), with a mean or sum row over the sets marked by the footer.
func (p *panel) perSet(w io.Writer, title string, sets []panelSet, f func(*record) *float64, scale float64, format, footer string, footSets []panelSet) {
	ls := p.learnersFor(sets)
	if len(ls) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### %s\n\n| set | n | splits |", title)
	for _, l := range ls {
		fmt.Fprintf(w, " %s |", shortName(l))
	}
	fmt.Fprint(w, "\n|---|--:|--:|")
	for range ls {
		fmt.Fprint(w, "--:|")
	}
	fmt.Fprintln(w)
	for _, s := range sets {
		shape := "–"
		for _, l := range ls {
			if c := p.cells[[2]string{l, s.Name}]; c != nil && len(c.ok) > 0 {
				shape = fmt.Sprint(c.ok[0].NTrain + c.ok[0].NTest)
				break
			}
		}
		fmt.Fprintf(w, "| %s | %s | %d |", s.Name, shape, p.setSplits[s.Name])
		for _, l := range ls {
			c := p.cells[[2]string{l, s.Name}]
			fmt.Fprintf(w, " %s |", p.cellText(c, f, scale, format))
		}
		fmt.Fprintln(w)
	}
	if footer == "" {
		return
	}
	agg := "mean"
	if strings.HasPrefix(footer, "total") {
		agg = "sum"
	}
	fmt.Fprintf(w, "| **%s** | | |", footer)
	for _, l := range ls {
		a := p.over(l, footSets, f, agg)
		a.v *= scale
		fmt.Fprintf(w, " %s |", strings.Replace(a.format(format), " sets)", ")", 1))
	}
	fmt.Fprintln(w)
}

// cellText is one cell: the split mean, "†" when some split is missing,
// "time-out" or "error" when no split finished.
func (p *panel) cellText(c *cell, f func(*record) *float64, scale float64, format string) string {
	if c == nil {
		return ""
	}
	v := c.mean(f)
	if math.IsNaN(v) {
		switch {
		case len(c.ok) > 0:
			return "–"
		case len(c.failed) > 0 && c.failed[0].TimedOut:
			return "time-out"
		case len(c.failed) > 0:
			return "error"
		}
		return ""
	}
	s := fmt.Sprintf(format, v*scale)
	if len(c.ok) != p.setSplits[c.ok[0].Set] {
		s += fmt.Sprintf(" (%d)", len(c.ok))
	}
	return s
}

// render writes the whole page.
func (p *panel) render(w io.Writer, work map[string]*record) {
	fmt.Fprintln(w, "# The panel: every learner at its defaults")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every registered learner that fits the task, at its defaults (its zero Config, as `rfkit train` fits it), beside")
	fmt.Fprintln(w, "XGBoost (`XGBClassifier`/`XGBRegressor(n_jobs=1)`) and scikit-learn's `HistGradientBoostingClassifier`/`Regressor()`")
	fmt.Fprintln(w, "at theirs, on the same seeded 70/30 splits (stratified for classification) of `../shared/datasets`.")
	fmt.Fprintln(w, "One thread everywhere (GOMAXPROCS 1, `n_jobs=1`; HistGradientBoosting through `OMP_NUM_THREADS=1`).")
	fmt.Fprintln(w, "Fit CPU is the process's CPU time around the fit; predict is the CPU time of one one-row call")
	fmt.Fprintln(w, "(Go: `Model.Predict`; the peers: `predict` on a 1 × d array, Python's call overhead included).")
	fmt.Fprintln(w, "Each figure is the mean over the splits of its set that every learner has (the splits column; a record run stopped")
	fmt.Fprintln(w, "early leaves sets with fewer), except for a learner with fewer than half of them, whose cell is the mean over its")
	fmt.Fprintln(w, "own; a cell over a number of finished fits other than the splits column shows that number in parentheses.")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Command: `make bench-panel` (bench/cmd/panel, bench/peers/panel.py); up to %d splits per set", p.splits)
	if p.dropped > 0 {
		fmt.Fprintf(w, " (%d records of splits not every learner of their set has are left out)", p.dropped)
	}
	fmt.Fprintf(w, "; last fit %s;\n", p.last)
	fmt.Fprintf(w, "code: %s; machine: %s (%d CPUs), shared with other jobs; %.0f fit CPU-s in all.\n",
		strings.Join(p.revs, ", "), hostinfo.CPUName(), runtimeCPUs(), p.cpu)
	if p.note != "" {
		fmt.Fprintln(w, p.note)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Headline")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Binary columns: the 16 sets of the GBRFF paper's Table 1 (a9a is in the per-set table, not here); fit CPU is the sum over")
	fmt.Fprintln(w, "those sets of one split's fit. Regression: the geometric mean over the sets of RMSE ÷ the better peer's RMSE.")
	fmt.Fprintln(w, "Predict: the median over the sets.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, headBegin)
	p.headline(w)
	fmt.Fprintln(w, headEnd)
	bin := p.setsOf(func(s panelSet) bool { return s.Task == learners.Binary })
	t1 := p.setsOf(func(s panelSet) bool { return s.Table1 })
	mc := p.setsOf(func(s panelSet) bool { return s.Task == learners.Multiclass })
	rg := p.setsOf(func(s panelSet) bool { return s.Task == learners.Regression })
	if len(bin) > 0 {
		fmt.Fprintln(w, "\n## Binary sets")
		p.perSet(w, "Test accuracy (%)", bin, accuracyOf, 100, "%.1f", "mean, Table 1 sets", t1)
		p.perSet(w, "Test log loss", bin, logLossOf, 1, "%.3f", "mean, Table 1 sets", t1)
		p.perSet(w, "Fit CPU seconds (one split)", bin, fitCPUOf, 1, "%.3f", "total, Table 1 sets", t1)
		p.perSet(w, "One-row predict, CPU µs", bin, predictOf, 1e-3, "%.2f", "", nil)
	}
	if len(mc) > 0 {
		fmt.Fprintln(w, "\n## Multiclass sets")
		p.perSet(w, "Test accuracy (%)", mc, accuracyOf, 100, "%.1f", "mean", mc)
		p.perSet(w, "Test log loss", mc, logLossOf, 1, "%.3f", "mean", mc)
		p.perSet(w, "Fit CPU seconds (one split)", mc, fitCPUOf, 1, "%.3f", "total", mc)
		p.perSet(w, "One-row predict, CPU µs", mc, predictOf, 1e-3, "%.2f", "", nil)
	}
	if len(rg) > 0 {
		fmt.Fprintln(w, "\n## Regression sets")
		p.perSet(w, "Test RMSE", rg, rmseOf, 1, "%.4g", "", nil)
		p.perSet(w, "Fit CPU seconds (one split)", rg, fitCPUOf, 1, "%.3f", "total", rg)
		p.perSet(w, "One-row predict, CPU µs", rg, predictOf, 1e-3, "%.2f", "", nil)
	}
	if p.trivial != nil {
		p.trivialSection(w, p.trivial, p.trivialMissing)
	}
	p.cost(w)
	p.gbrffWork(w, work)
	p.failures(w)
}

// cost is the run's cost per learner: the fit CPU of one split over
// every set, the slowest set and its fit, so that a learner whose default
// fit is unreasonably slow on some set shows here.
func (p *panel) cost(w io.Writer) {
	fmt.Fprintln(w, "\n## Cost of the run")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Per learner, over every set it fits: the fit CPU of one split (the sum over the sets of the split means), and its")
	fmt.Fprintln(w, "slowest set. The whole panel costs about the splits times the first column, plus the scoring (seconds).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| learner | sets | fit CPU-s per split | slowest set | its fit CPU-s |")
	fmt.Fprintln(w, "|---|--:|--:|---|--:|")
	var total float64
	for _, l := range p.learners {
		var sum, worst float64
		var worstSet string
		n := 0
		for _, s := range p.sets {
			v := p.cells[[2]string{l, s.Name}].mean(fitCPUOf)
			if math.IsNaN(v) {
				continue
			}
			n++
			sum += v
			if v > worst {
				worst, worstSet = v, s.Name
			}
		}
		if n == 0 {
			continue
		}
		total += sum
		fmt.Fprintf(w, "| %s | %d | %.1f | %s | %.1f |\n", learnerName(l), n, sum, worstSet, worst)
	}
	fmt.Fprintf(w, "| **all** | | **%.0f** | | |\n", total)
}

// gbrffWork is the second table: GBRFF2's frequency-step evaluations and
// L-BFGS iterations per round (its FitStats) on the work sources and on
// the panel's sets.
func (p *panel) gbrffWork(w io.Writer, work map[string]*record) {
	rows := workTable(work, p)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "\n## GBRFF2's ω search per round")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "`gbrff.FitStats` of GBRFF2's default fit, as the measured code counts it (rounds / fit tells whether the")
	fmt.Fprintln(w, "calibration's fits are in it: 100 is the final booster alone): frequency-step evaluations (loss and gradient) and")
	fmt.Fprintln(w, "accepted L-BFGS iterations per round, summed over a row's fits before dividing. The synthetic sources are fitted")
	fmt.Fprintln(w, "on all their rows (`panel -work`; the make_classification CSVs are written by `bench/peers/panel.py --recipes`);")
	fmt.Fprintln(w, "the panel's sets are the fits of the tables above. Rows searched: the rows each round searches b and ω on")
	fmt.Fprintln(w, "(`gbrff.Config.Subsample`: a large binary fit searches a per-round subsample; its doc gives the rule).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| source | rows | rows searched / round | fits | rounds / fit | frequency evaluations / round | L-BFGS iterations / round | default fit CPU-s |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %.1f | %.2f | %.2f | %.2f |\n", r.source, r.rows, r.searched, r.fits, r.rounds/float64(r.fits), r.fe/r.rounds, r.lbfgs/r.rounds, r.cpu/float64(r.fits))
	}
}

// failures lists the fits that failed or hit their time limit.
func (p *panel) failures(w io.Writer) {
	var lines []string
	for _, s := range p.sets {
		for _, l := range p.learners {
			c := p.cells[[2]string{l, s.Name}]
			if c == nil {
				continue
			}
			for _, r := range c.failed {
				what := "error: " + strings.ReplaceAll(r.Error, "|", "\\|")
				if r.TimedOut {
					what = fmt.Sprintf("stopped at its limit of %.0f CPU-s", r.CapS)
				}
				lines = append(lines, fmt.Sprintf("- %s on %s, split %d: %s", l, s.Name, r.Split, what))
			}
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "\n## Fits that did not finish")
	fmt.Fprintln(w)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// writePage writes the page from OUT/*.jsonl and, with -readme, the
// README's headline section.
func writePage(o *options, stderr io.Writer) error {
	recs, err := readDir(o.out)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return errNoRecords
	}
	work, err := readRecords(filepath.Join(o.out, "work.jsonl"))
	if err != nil {
		return err
	}
	p := newPanel(recs)
	p.note = o.note
	p.trivial, p.trivialMissing = loadTrivial(o.data, o.out, p.sets)
	var b strings.Builder
	p.render(&b, work)
	if err := os.MkdirAll(filepath.Dir(o.page), 0o755); err != nil {
		return err
	}
	if err := resultfile.Write(o.page, []byte(b.String())); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "panel: wrote %s (%d records)\n", o.page, len(recs))
	if o.readme == "" {
		return nil
	}
	if err := updateReadme(o.readme, b.String()); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "panel: wrote the headline of %s\n", o.readme)
	return nil
}

// runtimeCPUs is the machine's CPU count.
func runtimeCPUs() int { return runtime.NumCPU() }
