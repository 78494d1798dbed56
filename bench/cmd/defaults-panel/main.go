// Command defaults-panel fits GBRFF2 (GBRFF1 with -variant gbrff1) at its
// defaults (gbrff.Config{}) on the 16 binary data sets of
// ../shared/datasets over stratified 70/30 splits
// (dataset.StratifiedSplit, seeds 1..-splits) and prints, per set and in
// total, the mean test accuracy, log loss and fit CPU seconds. With -dump
// it writes each split's test indices (one line per split, the seed then
// the indices) so that the peers' script, peers.py beside this file, fits
// XGBoost and HistGradientBoosting on the same splits:
//
//	go run ./bench/cmd/defaults-panel -splits 5 -dump /tmp/splits
//	/usr/bin/python3 bench/cmd/defaults-panel/peers.py /tmp/splits ../shared/datasets
//
// It is a measuring aid for the defaults: the test rows are only scored.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/internal/cputime"
	"github.com/rfkit/rfkit/learners/gbrff"
)

// sets are the 16 binary sets of the GBRFF paper's Table 1.
var sets = []string{"wine", "sonar", "newthyroid", "heart", "bupa", "iono", "wdbc", "balance",
	"australian", "pima", "vehicle", "german", "splice", "spambase", "occupancy", "bankmarketing"}

// cpu is the process's CPU time (user + system).
func cpu() time.Duration { return cputime.Process() }

func main() {
	data := flag.String("data", filepath.Join("..", "shared", "datasets"), "the data sets' directory")
	splits := flag.Int("splits", 5, "stratified 70/30 splits (seeds 1..N)")
	only := flag.String("sets", "", "comma-separated sets (default: all 16)")
	dump := flag.String("dump", "", "write each set's split test indices to DIR/<set>.idx")
	cal := flag.String("calibration", "", "Config.Calibration (empty: the default)")
	T := flag.Int("T", 0, "Config.T (0: the default)")
	gamma := flag.Float64("gamma", 0, "Config.Gamma (0: the default)")
	prep := flag.String("prep", "", "experimental preprocessing: onehot, quantile, slog, all, onehotq")
	maxCard := flag.Int("maxcard", 10, "one-hot: most distinct integer values")
	gmul := flag.Float64("gmul", 0, "Config.Gamma = gmul/d (0: the default)")
	val := flag.Float64("val", 0, "Config.Validation")
	lr := flag.Float64("lr", 0, "Config.LearningRate")
	lambda := flag.Float64("lambda", 0, "Config.Lambda")
	inputs := flag.String("inputs", "", "Config.Inputs")
	gammaMin := flag.Float64("gammamin", 0, "Config.GammaMin = gammamin/d")
	variant := flag.String("variant", "", "Config.Variant")
	K := flag.Int("K", 0, "Config.K (GBRFF1)")
	beta := flag.Float64("beta", 0, "Config.Beta (GBRFF1)")
	stats := flag.String("stats", "", "comma-separated sources (peers:N:D:SEED or a CSV file): print the ω search's work per round of an uncalibrated fit at the defaults and at the old ones (T = 100, γ = 1/d, raw inputs), then exit")
	flag.Parse()
	if *stats != "" {
		src := strings.Split(*stats, ",")
		searchStats(src, gbrff.Config{T: 100, Gamma: 0}, "defaults")
		for _, s := range src {
			X, _, err := loadSource(s)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			searchStats([]string{s}, gbrff.Config{T: 100, Gamma: 1 / float64(X.Cols)}, "old")
		}
		return
	}
	fmt.Printf("%-14s %7s %7s %8s %6s\n", "set", "acc%", "logloss", "fitCPU", "rounds")
	var tAcc, tLL, tCPU float64
	var nSets int
	for _, name := range sets {
		if *only != "" && !strings.Contains(","+*only+",", ","+name+",") {
			continue
		}
		ds, err := dataset.LoadCSV(filepath.Join(*data, name, name+".csv"), dataset.CSVOptions{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var idx strings.Builder
		var acc, ll, sec, rounds float64
		for seed := 1; seed <= *splits; seed++ {
			tr, te := dataset.StratifiedSplit(ds.Y, 0.3, uint64(seed))
			idx.WriteString(strconv.Itoa(seed))
			for _, i := range te {
				idx.WriteString(" " + strconv.Itoa(i))
			}
			idx.WriteString("\n")
			train, test := ds.Subset(tr), ds.Subset(te)
			if *prep != "" {
				train, test = expPrep(*prep, *maxCard, train, test)
			}
			cfg := gbrff.Config{Calibration: *cal, T: *T, Gamma: *gamma, Validation: *val, LearningRate: *lr, Lambda: *lambda, Inputs: *inputs,
				Variant: *variant, K: *K, Beta: *beta}
			if *gmul > 0 {
				cfg.Gamma = *gmul / float64(train.D)
			}
			if *gammaMin > 0 {
				cfg.GammaMin = *gammaMin / float64(train.D)
			}
			c0 := cpu()
			m, err := gbrff.Fit(context.Background(), train.Matrix(), train.Y, cfg)
			sec += (cpu() - c0).Seconds()
			if err != nil {
				fmt.Fprintln(os.Stderr, name, err)
				os.Exit(1)
			}
			rounds += float64(m.Rounds())
			var right, loss float64
			for i := 0; i < test.N; i++ {
				x := test.Row(i)
				if m.Predict(x) == test.Y[i] {
					right++
				}
				p := m.Probability(x)
				if test.Y[i] < 0 {
					p = 1 - p
				}
				loss -= math.Log(math.Max(p, 1e-15))
			}
			acc += right / float64(test.N)
			ll += loss / float64(test.N)
		}
		k := float64(*splits)
		fmt.Printf("%-14s %7.2f %7.4f %8.2f %6.1f\n", name, 100*acc/k, ll/k, sec, rounds/k)
		tAcc += acc / k
		tLL += ll / k
		tCPU += sec
		nSets++
		if *dump != "" {
			err := os.MkdirAll(*dump, 0o755)
			if err == nil {
				err = os.WriteFile(filepath.Join(*dump, name+".idx"), []byte(idx.String()), 0o644)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	fmt.Printf("%-14s %7.2f %7.4f %8.2f\n", "MEAN/TOTAL", 100*tAcc/float64(nSets), tLL/float64(nSets), tCPU)
}
