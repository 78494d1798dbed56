package main

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rfkit/rfkit/dataset"
)

// stats are the mean and population standard deviation (numpy's default,
// as the authors' latex.py) of accuracies, in %.
type stats struct{ Mean, Std float64 }

func meanStd(v []float64) stats {
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return stats{100 * m, 100 * math.Sqrt(ss/float64(len(v)))}
}

func (s stats) String() string { return fmt.Sprintf("%.1f ± %.1f", s.Mean, s.Std) }

func (p paperResult) String() string {
	if !p.OK {
		return "–"
	}
	return fmt.Sprintf("%.1f ± %.1f", p.Mean, p.Std)
}

// writeReport writes the markdown report of a run.
func writeReport(b *strings.Builder, o *options, sets []*dataset.Dataset, groups []*group, elapsed, cpu time.Duration) {
	// acc[set][method] = test accuracies over the seeds.
	type key struct {
		set  int
		meth string
	}
	tests := map[key][]float64{}
	cvs := map[key][]float64{}
	chosen := map[key][]string{}
	work := map[key]time.Duration{}
	for _, g := range groups {
		k := key{g.set, g.meth.Key}
		tests[k] = append(tests[k], g.test)
		cvs[k] = append(cvs[k], g.cvMean)
		chosen[k] = append(chosen[k], g.cands[g.best].Name)
		work[k] += g.work
	}
	has := func(key string) bool {
		for _, m := range o.methods {
			if m.Key == key {
				return true
			}
		}
		return false
	}

	fmt.Fprintf(b, "# GBRFF Table 2 reproduction\n\n")
	fmt.Fprintf(b, "Mean ± standard deviation of the test accuracy (%%) over %d seed(s) (%s), protocol of Table 2 of Gautheron et al. (ECML 2020): "+
		"stratified 70/30 split per seed, %d-fold stratified CV on the 70 %% over each method's grid, best mean validation accuracy, refit on the 70 %%, test on the 30 %%.",
		o.seeds, seedRange(o), o.folds)
	if len(o.maxTrain) > 0 {
		var parts []string
		for _, m := range o.methods {
			if n := o.maxTrainFor(m.Key); n > 0 {
				parts = append(parts, fmt.Sprintf("%s to %d rows", m.Title, n))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(b, " Training parts above the limit were subsampled (stratified) before CV (-maxtrain %s): %s; test parts are complete.", maxTrainString(o), strings.Join(parts, ", "))
		}
	}
	if o.quick {
		fmt.Fprintf(b, " **-quick run: tiny grids, not the paper's.**")
	}
	fmt.Fprintf(b, " The paper's columns are its Table 2 (20 seeds).\n\n")

	header := []string{"data set", "n", "d"}
	align := []string{"---", "--:", "--:"}
	for _, m := range o.methods {
		header = append(header, m.Title)
		align = append(align, "---")
	}
	header = append(header, "paper GBRFF2", "paper GBRFF1", "paper PBRFF", "GBRFF2 within 1 paper std")
	align = append(align, "---", "---", "---", "---")
	fmt.Fprintf(b, "| %s |\n|%s|\n", strings.Join(header, " | "), strings.Join(align, "|"))

	within, compared := 0, 0
	means := map[string][]stats{} // per method, over the sets of the mean row
	var paperMeans [3][]paperResult
	var misses []string
	for si, ds := range sets {
		name := o.sets[si]
		p, _ := lookupPaper(name)
		row := []string{name, fmt.Sprint(ds.N), fmt.Sprint(ds.D)}
		for _, m := range o.methods {
			s := meanStd(tests[key{si, m.Key}])
			row = append(row, s.String())
			if name != "bankmarketing" {
				means[m.Key] = append(means[m.Key], s)
			}
		}
		row = append(row, p.GBRFF2.String(), p.GBRFF1.String(), p.PBRFF.String())
		if name != "bankmarketing" {
			paperMeans[0] = append(paperMeans[0], p.GBRFF2)
			paperMeans[1] = append(paperMeans[1], p.GBRFF1)
			paperMeans[2] = append(paperMeans[2], p.PBRFF)
		}
		if has("gbrff2") {
			s := meanStd(tests[key{si, "gbrff2"}])
			diff := s.Mean - p.GBRFF2.Mean
			ok := math.Abs(diff) <= p.GBRFF2.Std+1e-9
			compared++
			verdict := "no"
			if ok {
				within++
				verdict = "yes"
			} else {
				misses = append(misses, fmt.Sprintf("%s (%+.1f, paper std %.1f)", name, diff, p.GBRFF2.Std))
			}
			row = append(row, fmt.Sprintf("%s (%+.1f)", verdict, diff))
		} else {
			row = append(row, "–")
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(row, " | "))
	}
	if n := len(paperMeans[0]); n > 1 {
		row := []string{fmt.Sprintf("mean (%d sets, without bankmarketing)", n), "", ""}
		for _, m := range o.methods {
			row = append(row, meanOfStats(means[m.Key]))
		}
		for _, pm := range paperMeans {
			row = append(row, meanOfPaper(pm))
		}
		row = append(row, "")
		fmt.Fprintf(b, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintln(b)
	if compared > 0 {
		fmt.Fprintf(b, "**GBRFF2 within one paper std on %d of %d sets.**", within, compared)
		if len(misses) > 0 {
			fmt.Fprintf(b, " Outside: %s.", strings.Join(misses, ", "))
		}
		fmt.Fprintln(b)
		fmt.Fprintln(b)
	}
	fmt.Fprintf(b, "Seeds used: %d (%s). Total time: %s wall", o.seeds, seedRange(o), elapsed.Round(time.Second))
	if cpu > 0 {
		fmt.Fprintf(b, ", %s CPU", cpu.Round(time.Second))
	}
	fmt.Fprintf(b, " (%d workers, GOMAXPROCS %d, %d CPUs, %s/%s)", o.workers, runtime.GOMAXPROCS(0), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	cached := 0
	var fits time.Duration
	for _, g := range groups {
		fits += g.work
		if g.cached {
			cached++
		}
	}
	if cached > 0 {
		fmt.Fprintf(b, "; %d of %d (data set, seed, method) results were reused from the -cache file, so the time above does not cover them", cached, len(groups))
	}
	fmt.Fprintf(b, ". Summed duration of all fits: %s.\n\n", fits.Round(time.Second))

	fmt.Fprintf(b, "## Settings\n\n")
	fmt.Fprintf(b, "T = %d, %d folds, maxtrain %s. Grids (γ in multiples of 1/d on standardised inputs):\n\n", o.T, o.folds, maxTrainString(o))
	for _, m := range o.methods {
		fmt.Fprintf(b, "- %s (%d candidates): %s\n", m.Title, gridSize(m, o), describeGrid(m, o))
	}
	fmt.Fprintln(b)

	fmt.Fprintf(b, "## Per data set and method\n\n")
	fmt.Fprintf(b, "Mean CV accuracy of the chosen candidate, the most often chosen candidate (how many seeds), and the summed duration of the fits (candidates × folds + refit, all seeds).\n\n")
	fmt.Fprintf(b, "| data set | method | CV accuracy | most chosen | fit time |\n|---|---|---|---|--:|\n")
	for si := range sets {
		for _, m := range o.methods {
			k := key{si, m.Key}
			name, count := mode(chosen[k])
			name = prettyName(name, sets[si].D)
			fmt.Fprintf(b, "| %s | %s | %s | %s (%d/%d) | %s |\n", o.sets[si], m.Title, meanStd(cvs[k]), name, count, len(chosen[k]), work[k].Round(100*time.Millisecond))
		}
	}
}

func seedRange(o *options) string {
	if o.seeds == 1 {
		return fmt.Sprintf("seed %d", o.seed0)
	}
	return fmt.Sprintf("seeds %d–%d", o.seed0, o.seed0+o.seeds-1)
}

func maxTrainString(o *options) string {
	var parts []string
	if n, ok := o.maxTrain[""]; ok {
		parts = append(parts, fmt.Sprint(n))
	}
	for _, m := range methods {
		if n, ok := o.maxTrain[m.Key]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", m.Key, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// meanOfStats is the mean of the means ± the mean of the stds, as the
// paper's "Mean" row.
func meanOfStats(v []stats) string {
	if len(v) == 0 {
		return "–"
	}
	var m, s float64
	for _, x := range v {
		m += x.Mean
		s += x.Std
	}
	return fmt.Sprintf("%.1f ± %.1f", m/float64(len(v)), s/float64(len(v)))
}

func meanOfPaper(v []paperResult) string {
	var s []stats
	for _, p := range v {
		if !p.OK {
			return "–"
		}
		s = append(s, stats{p.Mean, p.Std})
	}
	return meanOfStats(s)
}

// mode returns the most frequent string (the first in sorted order on
// ties) and its count.
func mode(v []string) (string, int) {
	count := map[string]int{}
	for _, s := range v {
		count[s]++
	}
	keys := sortedKeys(count)
	best := ""
	for _, k := range keys {
		if best == "" || count[k] > count[best] {
			best = k
		}
	}
	return best, count[best]
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// prettyName spells the γ of a candidate name as a multiple of 1/d
// ("gamma=0.0769…" → "gamma=1/d" for d = 13), as the paper's grid is written.
func prettyName(name string, d int) string {
	parts := strings.Split(name, ",")
	for i, p := range parts {
		v, ok := strings.CutPrefix(p, "gamma=")
		if !ok {
			continue
		}
		var g float64
		if _, err := fmt.Sscan(v, &g); err != nil {
			continue
		}
		parts[i] = "gamma=" + strconv.FormatFloat(g*float64(d), 'g', 4, 64) + "/d"
	}
	return strings.Join(parts, ",")
}
