package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/rfkit/rfkit/learners"
)

// trivial is the trivial predictor's test scores on one split: fitted on
// the split's training rows, it predicts the training part's most frequent
// class (the smallest label on a tie) with the training class frequencies
// as probabilities (classification), or the training mean (regression).
// Log loss clips probabilities at 1e-15, as the learners' (metrics.LogLoss)
// does, so a class missing from the training part costs −log 1e-15.
type trivial struct {
	Accuracy, LogLoss, RMSE float64 // NaN where the task has no such metric
}

// trivialScores is the trivial predictor of y's rows sp.Train scored on
// its rows sp.Test, for task t.
func trivialScores(y []float64, t learners.Task, sp split) trivial {
	out := trivial{Accuracy: math.NaN(), LogLoss: math.NaN(), RMSE: math.NaN()}
	if len(sp.Train) == 0 || len(sp.Test) == 0 {
		return out
	}
	if t == learners.Regression {
		var mean float64
		for _, i := range sp.Train {
			mean += y[i]
		}
		mean /= float64(len(sp.Train))
		var se float64
		for _, i := range sp.Test {
			d := mean - y[i]
			se += d * d
		}
		out.RMSE = math.Sqrt(se / float64(len(sp.Test)))
		return out
	}
	count := map[float64]int{}
	for _, i := range sp.Train {
		count[y[i]]++
	}
	labels := slices.Sorted(func(yield func(float64) bool) {
		for k := range count {
			if !yield(k) {
				return
			}
		}
	})
	major := labels[0]
	for _, k := range labels {
		if count[k] > count[major] {
			major = k
		}
	}
	var hit int
	var ll float64
	for _, i := range sp.Test {
		if y[i] == major {
			hit++
		}
		p := float64(count[y[i]]) / float64(len(sp.Train))
		ll -= math.Log(max(p, 1e-15))
	}
	out.Accuracy = float64(hit) / float64(len(sp.Test))
	out.LogLoss = ll / float64(len(sp.Test))
	return out
}

// trivialBySet is the trivial predictor's scores per set and split seed.
type trivialBySet map[string]map[int]trivial

// loadTrivial computes the trivial predictor on every split of the
// panel's sets from the split files of out (OUT/splits) and the data of
// dir. A set whose split file or data cannot be read (or do not match) is
// left out and listed in missing, so that the page names the sets it
// could not check.
func loadTrivial(dir, out string, sets []panelSet) (tb trivialBySet, missing []string) {
	tb = trivialBySet{}
	for _, s := range sets {
		data, err := os.ReadFile(splitPath(out, s.Name))
		if err != nil {
			missing = append(missing, s.Name)
			continue
		}
		var f splitFile
		if err := json.Unmarshal(data, &f); err != nil {
			missing = append(missing, s.Name)
			continue
		}
		ds, err := loadSet(dir, s)
		if err != nil || ds.N != f.Rows {
			missing = append(missing, s.Name)
			continue
		}
		tb[s.Name] = map[int]trivial{}
		for _, sp := range f.Splits {
			if slices.ContainsFunc(slices.Concat(sp.Train, sp.Test), func(i int) bool { return i < 0 || i >= ds.N }) {
				delete(tb, s.Name)
				missing = append(missing, s.Name)
				break
			}
			tb[s.Name][sp.Seed] = trivialScores(ds.Y, s.Task, sp)
		}
	}
	return tb, missing
}

// offence is a learner on a set doing worse than the trivial predictor:
// metric ("accuracy", "log loss" or "RMSE"), the learner's mean over its
// finished splits and the trivial predictor's over the same splits.
type offence struct {
	learner, set, metric string
	got, trivial         float64
}

// offences lists, in table order (set, then learner), every cell of p
// whose mean accuracy is below the trivial predictor's (the training
// majority class) on the same splits, whose mean log loss is above the
// class-prior predictor's, or whose mean RMSE is above the training
// mean's. A cell with a split the trivial scores lack is not judged.
func (p *panel) offences(tb trivialBySet) []offence {
	var out []offence
	for _, s := range p.sets {
		base, ok := tb[s.Name]
		if !ok {
			continue
		}
		for _, l := range p.learners {
			c := p.cells[[2]string{l, s.Name}]
			if c == nil || len(c.ok) == 0 {
				continue
			}
			var ref trivial
			judged := true
			for _, r := range c.ok {
				b, ok := base[r.Split]
				if !ok {
					judged = false
					break
				}
				ref.Accuracy += b.Accuracy
				ref.LogLoss += b.LogLoss
				ref.RMSE += b.RMSE
			}
			if !judged {
				continue
			}
			n := float64(len(c.ok))
			ref = trivial{ref.Accuracy / n, ref.LogLoss / n, ref.RMSE / n}
			// a margin of 1e-12 so that a learner that predicts the
			// trivial predictor's scores is not an offender by rounding
			const eps = 1e-12
			if v := c.mean(accuracyOf); v < ref.Accuracy-eps {
				out = append(out, offence{l, s.Name, "accuracy", v, ref.Accuracy})
			}
			if v := c.mean(logLossOf); v > ref.LogLoss+eps {
				out = append(out, offence{l, s.Name, "log loss", v, ref.LogLoss})
			}
			if v := c.mean(rmseOf); v > ref.RMSE+eps {
				out = append(out, offence{l, s.Name, "RMSE", v, ref.RMSE})
			}
		}
	}
	return out
}

// trivialSection writes the page's check against the trivial predictor.
func (p *panel) trivialSection(w io.Writer, tb trivialBySet, missing []string) {
	fmt.Fprintln(w, "\n## Below the trivial predictor")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every learner × set whose mean accuracy is below that of the training split's majority class, whose mean log loss")
	fmt.Fprintln(w, "is above that of the training class frequencies (the class-prior predictor), or whose RMSE is above that of the")
	fmt.Fprintln(w, "training mean, each scored on the same test splits as the learner's mean.")
	if len(missing) > 0 {
		fmt.Fprintf(w, "Not checked (no split file or data): %s.\n", strings.Join(missing, ", "))
	}
	fmt.Fprintln(w)
	off := p.offences(tb)
	if len(off) == 0 {
		fmt.Fprintln(w, "None.")
		return
	}
	fmt.Fprintln(w, "| set | learner | metric | learner's | trivial predictor's |")
	fmt.Fprintln(w, "|---|---|---|--:|--:|")
	for _, o := range off {
		f := "%.4g"
		got, ref := o.got, o.trivial
		if o.metric == "accuracy" {
			f, got, ref = "%.1f %%", 100*got, 100*ref
		}
		fmt.Fprintf(w, "| %s | %s | %s | "+f+" | "+f+" |\n", o.set, learnerName(o.learner), o.metric, got, ref)
	}
}
