// Command regression measures the regression learners on the
// four regression data sets of ../shared/datasets: the test RMSE of the
// standardised target (standardised with the training part's mean and
// standard deviation) over random 70/30 splits (seeds 1..-splits), and
// writes a Markdown table.
//
//	go run ./bench/cmd/regression -out bench/results/regression.md
//	go run ./bench/cmd/regression -splits 2 -runs 'gbrff2:t=300 learningrate=0.1'
//
// The references are the XGBoost and RFF(300)+ridge figures.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/rks"
)

// defaultRuns are the learners and their settings, "method:key=value ...".
var defaultRuns = "gbrff2:t=1000 learningrate=0.5;gbrff2:t=1000 learningrate=0.5 loss=huber;gbrff1:t=300 learningrate=0.5"

var sets = []struct {
	name       string
	xgb, ridge float64
}{{"cpu_act", 0.134, 0.371}, {"cadata", 0.418, 0.508}, {"elevators", 0.344, 0.419}, {"ailerons", 0.402, 0.471}}

func main() {
	data := flag.String("data", filepath.Join("..", "shared", "datasets"), "the data sets' directory")
	splits := flag.Int("splits", 5, "random 70/30 splits (seeds 1..N)")
	runs := flag.String("runs", defaultRuns, "semicolon-separated runs, each method:key=value ...")
	onTrain := flag.Bool("train", false, "report the training RMSE instead (a diagnostic of under- or overfitting)")
	only := flag.String("sets", "", "comma-separated data sets (default: all four)")
	out := flag.String("out", "", "write the table to this file (default: stdout)")
	flag.Parse()
	result := resultfile.Start(*out)
	w := result.Writer()
	fmt.Fprintf(w, "# Regression: test RMSE of the standardised target, mean over %d random 70/30 splits\n\n", *splits)
	fmt.Fprintf(w, "`go run ./bench/cmd/regression -splits %d -runs '%s'`\n\n", *splits, *runs)
	fmt.Fprintf(w, "| method | settings |")
	var use []int
	for i, s := range sets {
		if *only == "" || strings.Contains(","+*only+",", ","+s.name+",") {
			use = append(use, i)
			fmt.Fprintf(w, " %s |", s.name)
		}
	}
	fmt.Fprintf(w, " fit time |\n|---|---|%s---|\n", strings.Repeat("---|", len(use)))
	loaded := map[string]*dataset.Dataset{}
	for _, run := range strings.Split(*runs, ";") {
		method, params, _ := strings.Cut(strings.TrimSpace(run), ":")
		m, err := learners.Lookup(method)
		if err != nil {
			fail(err)
		}
		fmt.Fprintf(w, "| %s | %s |", method, params)
		var spent time.Duration
		for _, i := range use {
			s := sets[i]
			ds := loaded[s.name]
			if ds == nil {
				if ds, err = dataset.LoadCSV(filepath.Join(*data, s.name, s.name+".csv"), dataset.CSVOptions{}); err != nil {
					fail(err)
				}
				loaded[s.name] = ds
			}
			var sum float64
			for seed := 1; seed <= *splits; seed++ {
				train, test := dataset.StratifiedSplit(make([]float64, ds.N), 0.3, uint64(seed))
				tr, te := ds.Subset(train), ds.Subset(test)
				mu, sd := meanSD(tr.Y)
				ytr := make([]float64, tr.N)
				for k, v := range tr.Y {
					ytr[k] = (v - mu) / sd
				}
				cfg := m.NewConfig()
				for _, kv := range append([]string{"task=regression"}, strings.Fields(params)...) {
					k, v, _ := strings.Cut(kv, "=")
					if err := learners.SetParam(cfg, k, v); err != nil {
						fail(err)
					}
				}
				start := time.Now()
				model, err := m.Fit(context.Background(), tr.Matrix(), ytr, cfg, nil)
				spent += time.Since(start)
				if err != nil {
					fail(fmt.Errorf("%s on %s, split %d: %w", method, s.name, seed, err))
				}
				if *onTrain {
					te = tr
				}
				pred := make([]float64, te.N)
				if err := model.PredictBatch(pred, te.Matrix()); err != nil {
					fail(err)
				}
				var se float64
				for k, p := range pred {
					e := p - (te.Y[k]-mu)/sd
					se += e * e
				}
				sum += math.Sqrt(se / float64(te.N))
			}
			fmt.Fprintf(w, " %.3f |", sum/float64(*splits))
		}
		fmt.Fprintf(w, " %.1fs |\n", spent.Seconds())
	}
	fmt.Fprintf(w, "| XGBoost (issue) | |")
	for _, i := range use {
		fmt.Fprintf(w, " %.3f |", sets[i].xgb)
	}
	fmt.Fprintf(w, " |\n| RFF(300)+ridge (issue) | |")
	for _, i := range use {
		fmt.Fprintf(w, " %.3f |", sets[i].ridge)
	}
	fmt.Fprintln(w, " |")
	if err := result.Commit(); err != nil {
		fail(err)
	}
}

func meanSD(y []float64) (float64, float64) {
	var s, s2 float64
	for _, v := range y {
		s += v
	}
	mu := s / float64(len(y))
	for _, v := range y {
		s2 += (v - mu) * (v - mu)
	}
	return mu, math.Sqrt(s2 / float64(len(y)))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "regression:", err)
	os.Exit(1)
}
