package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/pbrff"
)

// fullMaxTrain caps the training parts of -full figs. 2 and 3 (splice has
// 2222 training rows, spambase 3217, occupancy 14 392, bankmarketing
// 31 647). Uncapped, one -full fig. 2 (5-fold CV of GBRFF1 with K = 10 at
// T = 50 on bankmarketing's 31 647 rows, 20 splits) would take hours on
// this 2-core machine: the run without a cap had done 13 of the 16 sets
// (7 of 20 splits of splice) after 8 min of wall time.
const fullMaxTrain = 2000

// tableSets are the 16 data sets of the paper's Table 1, in its order.
var tableSets = []string{"wine", "sonar", "newthyroid", "heart", "bupa", "iono", "wdbc", "balance",
	"australian", "pima", "vehicle", "german", "splice", "spambase", "occupancy", "bankmarketing"}

// split is one 70/30 train/test split of a data set, the training part
// possibly subsampled.
type split struct {
	set         string
	seed        int
	train, test *dataset.Dataset
}

// loadSplits loads the sets and makes `seeds` stratified 70/30 splits of
// each (dataset.StratifiedSplit with seed s, as bench/cmd/reproduce-gbrff),
// the training part subsampled (stratified, seed s) to at most maxTrain
// rows when maxTrain > 0.
func loadSplits(o options, seeds, maxTrain int) ([]split, error) {
	names := o.sets
	if len(names) == 0 {
		names = tableSets
	}
	var out []split
	for _, name := range names {
		name = strings.TrimSpace(name)
		ds, err := dataset.LoadCSV(filepath.Join(o.data, name, name+".csv"), dataset.CSVOptions{})
		if err != nil {
			return nil, err
		}
		for s := 0; s < seeds; s++ {
			tr, te := dataset.StratifiedSplit(ds.Y, 0.3, uint64(s))
			if maxTrain > 0 && len(tr) > maxTrain {
				sub, _ := dataset.StratifiedSplit(pick(ds.Y, tr), 1-float64(maxTrain)/float64(len(tr)), uint64(s))
				keep := make([]int, len(sub))
				for i, k := range sub {
					keep[i] = tr[k]
				}
				tr = keep
			}
			out = append(out, split{set: name, seed: s, train: ds.Subset(tr), test: ds.Subset(te)})
		}
	}
	return out, nil
}

func pick(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, k := range idx {
		out[i] = v[k]
	}
	return out
}

// parallel runs f(i) for i < n on two goroutines (the machine's cores) and
// returns the first error.
func parallel(n int, f func(i int) error) error {
	var mu sync.Mutex
	var first error
	next := 0
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// cvFolds is the number of cross-validation folds of Fig. 2.
const cvFolds = 5

// cvGamma picks γ ∈ 2^{−2..2}/d (the paper's grid) by cvFolds-fold
// stratified CV on tr (folds seeded 2³² + seed, as bench/cmd/reproduce-gbrff):
// eval fits on one part and returns the accuracy on the other. It returns
// γ and log₂(γ·d); ties go to the smaller γ.
func cvGamma(tr *dataset.Dataset, seed int, eval func(ft, fv *dataset.Dataset, g float64) (float64, error)) (float64, float64, error) {
	folds, err := dataset.StratifiedKFold(tr.Y, cvFolds, 1<<32+uint64(seed))
	if err != nil {
		return 0, 0, err
	}
	best, bestE, bestAcc := 0.0, 0.0, -1.0
	for e := -2; e <= 2; e++ {
		g := math.Ldexp(1, e) / float64(tr.D)
		var acc float64
		for f := range folds {
			a, err := eval(tr.Subset(dataset.TrainIndices(folds, f)), tr.Subset(folds[f]), g)
			if err != nil {
				return 0, 0, err
			}
			acc += a
		}
		if acc > bestAcc {
			best, bestE, bestAcc = g, float64(e), acc
		}
	}
	return best, bestE, nil
}

// perSet averages per-split values (splits × cuts) per set and then over
// sets: the paper's "mean over the 16 datasets" of the per-set means.
func perSet(splits []split, vals [][]float64) (bySet map[string][]float64, mean []float64, order []string) {
	bySet = map[string][]float64{}
	count := map[string]int{}
	for i, sp := range splits {
		if _, ok := bySet[sp.set]; !ok {
			bySet[sp.set] = make([]float64, len(vals[i]))
			order = append(order, sp.set)
		}
		for c, v := range vals[i] {
			bySet[sp.set][c] += v
		}
		count[sp.set]++
	}
	mean = make([]float64, len(vals[0]))
	for _, s := range order {
		for c := range bySet[s] {
			bySet[s][c] /= float64(count[s])
			mean[c] += bySet[s][c] / float64(len(order))
		}
	}
	return bySet, mean, order
}

// fig2 is the accuracy against the number of landmarks (boosting rounds)
// 1…50 of GBRFF1, PBRFF and GBRFF2.
func fig2(o options, log io.Writer) (*report, error) {
	seeds := o.seedsOr(2, 20)
	maxTrain := 1000
	cuts := []int{1, 2, 3, 5, 7, 10, 15, 20, 25, 30, 40, 50}
	if o.full {
		maxTrain = fullMaxTrain
		cuts = cuts[:0]
		for t := 1; t <= 50; t++ {
			cuts = append(cuts, t)
		}
	}
	const pbrffMax = fullMaxTrain
	splits, err := loadSplits(o, seeds, maxTrain)
	if err != nil {
		return nil, err
	}
	T := cuts[len(cuts)-1]
	methods := []string{"GBRFF1", "PBRFF", "GBRFF2"}
	acc := make([][][]float64, len(methods)) // method × split × cut
	for m := range acc {
		acc[m] = make([][]float64, len(splits))
	}
	t0 := time.Now()
	gammaSel := make([][]float64, len(methods)) // method × split: log2(γ·d) chosen
	for m := range gammaSel {
		gammaSel[m] = make([]float64, len(splits))
	}
	err = parallel(len(splits), func(i int) error {
		sp := splits[i]
		X, Xt := sp.train.Matrix(), sp.test.Matrix()
		ptr := sp.train
		if ptr.N > pbrffMax {
			sub, _ := dataset.StratifiedSplit(ptr.Y, 1-float64(pbrffMax)/float64(ptr.N), uint64(sp.seed))
			ptr = ptr.Subset(sub)
		}
		for m, variant := range []string{gbrff.VariantGBRFF1, gbrff.VariantGBRFF2} {
			cfg := gbrff.Config{Variant: variant, T: T, K: 10, Seed: uint64(sp.seed), Threads: 1}
			g, e, err := cvGamma(sp.train, sp.seed, func(ft, fv *dataset.Dataset, g float64) (float64, error) {
				c := cfg
				c.Gamma = g
				_, ex, err := fitGBRFF(ft.Matrix(), ft.Y, c)
				if err != nil {
					return 0, err
				}
				a, err := ex.stagedAccuracy(fv.Matrix(), fv.Y, []int{T})
				return a[0], err
			})
			if err != nil {
				return fmt.Errorf("%s seed %d %s: %w", sp.set, sp.seed, variant, err)
			}
			cfg.Gamma = g
			gammaSel[2*m][i] = e
			_, ex, err := fitGBRFF(X, sp.train.Y, cfg)
			if err != nil {
				return fmt.Errorf("%s seed %d: %w", sp.set, sp.seed, err)
			}
			a, err := ex.stagedAccuracy(Xt, sp.test.Y, cuts)
			if err != nil {
				return err
			}
			acc[2*m][i] = a
		}
		pcfg := pbrff.Config{Landmarks: T, K: 10, Seed: uint64(sp.seed), Search: learners.Disabled}
		g, e, err := cvGamma(ptr, sp.seed, func(ft, fv *dataset.Dataset, g float64) (float64, error) {
			c := pcfg
			c.Gamma = g
			m, err := pbrff.Fit(context.Background(), ft.Matrix(), ft.Y, c)
			if err != nil {
				return 0, err
			}
			return accuracy(m.Predict, fv.Matrix(), fv.Y), nil
		})
		if err != nil {
			return fmt.Errorf("%s seed %d pbrff: %w", sp.set, sp.seed, err)
		}
		pcfg.Gamma = g
		gammaSel[1][i] = e
		a := make([]float64, len(cuts))
		for c, L := range cuts {
			pc := pcfg
			pc.Landmarks = L
			m, err := pbrff.Fit(context.Background(), ptr.Matrix(), ptr.Y, pc)
			if err != nil {
				return fmt.Errorf("%s seed %d pbrff L=%d: %w", sp.set, sp.seed, L, err)
			}
			a[c] = accuracy(m.Predict, Xt, sp.test.Y)
		}
		acc[1][i] = a
		fmt.Fprintf(log, "fig2: %s seed %d done (%v)\n", sp.set, sp.seed, time.Since(t0).Round(time.Second))
		return nil
	})
	if err != nil {
		return nil, err
	}
	means := make([][]float64, len(methods))
	var bySet []map[string][]float64
	var order []string
	for m := range methods {
		var bs map[string][]float64
		bs, means[m], order = perSet(splits, acc[m])
		bySet = append(bySet, bs)
	}
	r := &report{fig: 2, title: "mean test accuracy against the number of landmarks", command: o.cmdLine(2, setsFlag(o))}
	b := &r.body
	fmt.Fprintf(b, "Protocol: per data set (%s) and seed s = 0..%d, the stratified 70/30 split of bench/cmd/reproduce-gbrff (seed s)", strings.Join(order, ", "), seeds-1)
	if maxTrain > 0 {
		fmt.Fprintf(b, ", the training part subsampled (stratified) to at most %d rows", maxTrain)
	}
	fmt.Fprintf(b, ". ")
	fmt.Fprintf(b, "GBRFF1 (K = 10, β = 1) and GBRFF2 (λ = 0) are fitted once with T = %d and read after t rounds (t landmarks); PBRFF (K = 10, β = 1, C = 1, hinge) is fitted for each landmark count. ", T)
	fmt.Fprintf(b, "γ ∈ 2^{−2..2}/d is chosen per split and method by %d-fold stratified CV on the training part at %d landmarks (GBRFF: the accuracy after T = %d rounds; PBRFF: %d landmarks), then used at every landmark count. ", cvFolds, T, T, T)
	fmt.Fprintf(b, "**Differences from the paper**: the paper's CV also tunes β ∈ 10^{−2..2} (GBRFF1, PBRFF), λ ∈ {0, 2^{−5..−2}} (GBRFF2) and C ∈ 10^{−2..2} (PBRFF); here β = 1, λ = 0, C = 1 are fixed (the §4.4 setting), which cuts the grids from 25/25/125 to 5 candidates each.\n\n")
	fmt.Fprintf(b, "Mean log₂(γ·d) chosen: GBRFF1 %+.2f, PBRFF %+.2f, GBRFF2 %+.2f.\n\n", meanOf(gammaSel[0]), meanOf(gammaSel[1]), meanOf(gammaSel[2]))
	fmt.Fprintf(b, "Paper (§4.2, figure only): with more than 25 landmarks PBRFF and GBRFF1 are similar and reach about 87.5 %% after 50; below 25 GBRFF1 is about 1 point above PBRFF; GBRFF2 is above both, reaching its maximum with about 20 landmarks.\n\n")
	fmt.Fprintf(b, "Mean test accuracy (%%) over the %d sets (each set's mean over its %d splits):\n\n| landmarks |", len(order), seeds)
	for _, m := range methods {
		fmt.Fprintf(b, " %s |", m)
	}
	fmt.Fprintf(b, "\n|---:|---:|---:|---:|\n")
	for c, t := range cuts {
		fmt.Fprintf(b, "| %d | %.2f | %.2f | %.2f |\n", t, means[0][c], means[1][c], means[2][c])
	}
	last := len(cuts) - 1
	i25 := sort.SearchInts(cuts, 25)
	var below1, gb2best int
	for c := range cuts {
		if cuts[c] < 25 && means[0][c] > means[1][c] {
			below1++
		}
		if means[2][c] >= means[0][c] && means[2][c] >= means[1][c] {
			gb2best++
		}
	}
	nBelow := sort.SearchInts(cuts, 25)
	maxAt := 0
	for c := range cuts {
		if means[2][c] > means[2][maxAt] {
			maxAt = c
		}
	}
	within := last // from cuts[within] on, GBRFF2 stays within 0.5 point of its maximum
	for c := last; c >= 0 && means[2][c] >= means[2][maxAt]-0.5; c-- {
		within = c
	}
	fmt.Fprintf(b, "\nChecks of the paper's statements: at 50 landmarks PBRFF %.2f %% and GBRFF1 %.2f %% (paper: both about 87.5 %%); ", means[1][last], means[0][last])
	fmt.Fprintf(b, "GBRFF1 above PBRFF at %d of the %d landmark counts below 25 (mean gap %+.2f points; paper: about +1); ", below1, nBelow, meanGap(means[0][:i25], means[1][:i25]))
	fmt.Fprintf(b, "GBRFF2 at or above both at %d of %d counts; GBRFF2 is within 0.5 point of its maximum (%.2f %% at %d) from %d landmarks on (paper: about 20).\n\n",
		gb2best, len(cuts), means[2][maxAt], cuts[maxAt], cuts[within])
	fmt.Fprintf(b, "Per set at %d landmarks (GBRFF1 / PBRFF / GBRFF2, %%):\n\n| set | GBRFF1 | PBRFF | GBRFF2 |\n|---|---:|---:|---:|\n", T)
	for _, s := range order {
		fmt.Fprintf(b, "| %s | %.1f | %.1f | %.1f |\n", s, bySet[0][s][last], bySet[1][s][last], bySet[2][s][last])
	}
	x := floatsOf(cuts)
	r.png = func(path string) error {
		return savePanels(path, 1, 1, []panel{{title: "GBRFF Fig. 2: mean test accuracy over the data sets", xlabel: "number of landmarks (rounds)", ylabel: "accuracy (%)",
			curves: []series{{name: "GBRFF1", x: x, y: means[0]}, {name: "PBRFF", x: x, y: means[1]}, {name: "GBRFF2", x: x, y: means[2]}}}}, 7*vg.Inch, 5*vg.Inch)
	}
	return r, nil
}

// fig3 is GBRFF1's accuracy for K ∈ {1, 5, 10, 20} at a fixed total T·K.
func fig3(o options, log io.Writer) (*report, error) {
	seeds := o.seedsOr(2, 20)
	maxTrain := 500
	totals := []int{20, 40, 100, 200, 500, 1000}
	if o.full {
		maxTrain = fullMaxTrain
	}
	Ks := []int{1, 5, 10, 20}
	splits, err := loadSplits(o, seeds, maxTrain)
	if err != nil {
		return nil, err
	}
	acc := make([][][]float64, len(Ks))
	for k := range acc {
		acc[k] = make([][]float64, len(splits))
	}
	t0 := time.Now()
	err = parallel(len(splits), func(i int) error {
		sp := splits[i]
		X, Xt := sp.train.Matrix(), sp.test.Matrix()
		for k, K := range Ks {
			cuts := make([]int, len(totals))
			for c, tk := range totals {
				cuts[c] = tk / K
			}
			// γ = 1/d, the paper's: an explicit γ keeps the raw inputs and one width
			_, e, err := fitGBRFF(X, sp.train.Y, gbrff.Config{Variant: gbrff.VariantGBRFF1, K: K, T: cuts[len(cuts)-1], Gamma: 1 / float64(X.Cols), Seed: uint64(sp.seed), Threads: 1})
			if err != nil {
				return fmt.Errorf("%s seed %d K=%d: %w", sp.set, sp.seed, K, err)
			}
			if acc[k][i], err = e.stagedAccuracy(Xt, sp.test.Y, cuts); err != nil {
				return err
			}
		}
		fmt.Fprintf(log, "fig3: %s seed %d done (%v)\n", sp.set, sp.seed, time.Since(t0).Round(time.Second))
		return nil
	})
	if err != nil {
		return nil, err
	}
	means := make([][]float64, len(Ks))
	var order []string
	for k := range Ks {
		_, means[k], order = perSet(splits, acc[k])
	}
	r := &report{fig: 3, title: "GBRFF1 with K ∈ {1, 5, 10, 20} at a fixed total T·K of random features", command: o.cmdLine(3, setsFlag(o))}
	b := &r.body
	fmt.Fprintf(b, "Protocol: the splits of Fig. 2 (%d sets, seeds 0..%d", len(order), seeds-1)
	if maxTrain > 0 {
		fmt.Fprintf(b, ", training parts subsampled to at most %d rows", maxTrain)
	}
	fmt.Fprintf(b, "); GBRFF1 with γ = 1/d, β = 1 (fixed, not CV-selected as in the paper), fitted once per K with T = 1000/K rounds and read after T = total/K rounds.\n\n")
	fmt.Fprintf(b, "Paper (§4.3, figure only): at T·K = 1000 K has little effect; the smaller T·K, the more a small K (K = 1) wins.\n\n")
	fmt.Fprintf(b, "Mean test accuracy (%%) over the sets:\n\n| T·K |")
	for _, K := range Ks {
		fmt.Fprintf(b, " K = %d |", K)
	}
	fmt.Fprintf(b, " spread (max − min) |\n|---:|%s---:|\n", repeat("---:|", len(Ks)))
	for c, tk := range totals {
		fmt.Fprintf(b, "| %d |", tk)
		lo, hi := 101.0, -1.0
		for k := range Ks {
			fmt.Fprintf(b, " %.2f |", means[k][c])
			lo, hi = min(lo, means[k][c]), max(hi, means[k][c])
		}
		fmt.Fprintf(b, " %.2f |\n", hi-lo)
	}
	first, last := 0, len(totals)-1
	fmt.Fprintf(b, "\nChecks: at T·K = %d, K = 1 minus K = 20 is %+.2f points; at T·K = %d it is %+.2f points (paper: clearly positive at small T·K, about 0 at 1000).\n",
		totals[first], means[0][first]-means[3][first], totals[last], means[0][last]-means[3][last])
	x := floatsOf(totals)
	r.png = func(path string) error {
		var cs []series
		for k, K := range Ks {
			cs = append(cs, series{name: "K = " + strconv.Itoa(K), x: x, y: means[k]})
		}
		return savePanels(path, 1, 1, []panel{{title: "GBRFF Fig. 3: GBRFF1 at a fixed T·K", xlabel: "total random features T·K", ylabel: "accuracy (%)", logX: true, curves: cs}}, 7*vg.Inch, 5*vg.Inch)
	}
	return r, nil
}

func accuracy(predict func([]float64) float64, X featmap.Matrix, y []float64) float64 {
	ok := 0
	for i := range y {
		if predict(X.Row(i)) == y[i] {
			ok++
		}
	}
	return 100 * float64(ok) / float64(len(y))
}

func meanOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x / float64(len(v))
	}
	return s
}

func meanGap(a, b []float64) float64 {
	if len(a) == 0 {
		return 0
	}
	var s float64
	for i := range a {
		s += a[i] - b[i]
	}
	return s / float64(len(a))
}

func floatsOf(v []int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func setsFlag(o options) string {
	if len(o.sets) == 0 {
		return ""
	}
	return "-sets " + strings.Join(o.sets, ",")
}
