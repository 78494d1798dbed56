// Command multiclass measures the multiclass learners on the
// four multiclass data sets of ../shared/datasets: the mean (and standard
// deviation) of the test accuracy over stratified 70/30 splits (seeds
// 1..-splits, dataset.StratifiedSplit), each learner standardising on its
// training part, and writes a Markdown table.
//
//	go run ./bench/cmd/multiclass -out bench/results/multiclass.md
//	go run ./bench/cmd/multiclass -splits 3 -methods rks,mfga
//
// The settings are fixed (no tuning): the defaults of each learner except
// the ones listed in the table (more features for the linear learners,
// the degree-2 dictionary for MFGA, more epochs for the online ones). The
// references are the XGBoost (depth 5, 100 trees) and RBF SVC
// figures over 10 splits.
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
	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rks"
	_ "github.com/rfkit/rfkit/learners/rrf"
)

// runs are the learners and their settings.
var runs = []struct {
	method string
	params []string
}{
	{"rks", []string{"features=300"}},
	{"eerf", []string{"features=300"}},
	{"lkrf", []string{"features=300"}},
	{"prff", []string{"features=100"}},
	{"mfga", []string{"degree=2"}},
	{"pbrff", []string{"landmarks=100"}},
	{"fogd", []string{"epochs=5"}},
	{"rrf", []string{"loss=logistic", "epochs=20", "eta=0.02"}},
	{"gbrff2", []string{"learningrate=0.5"}},
	{"gbrff1", []string{"learningrate=0.5"}},
}

var sets = []struct {
	name         string
	xgboost, svc float64
}{{"wine", 96.1, 98.7}, {"balance", 85.9, 90.3}, {"vehicle", 76.7, 75.7}, {"newthyroid", 94.3, 94.6}}

func main() {
	data := flag.String("data", filepath.Join("..", "shared", "datasets"), "the data sets' directory")
	splits := flag.Int("splits", 10, "stratified 70/30 splits (seeds 1..N)")
	methods := flag.String("methods", "", "comma-separated methods (default: all)")
	out := flag.String("out", "", "write the table to this file (default: stdout)")
	flag.Parse()
	result := resultfile.Start(*out)
	w := result.Writer()
	fmt.Fprintf(w, "# Multiclass test accuracy (%%), mean ± sd over %d stratified 70/30 splits\n\n", *splits)
	fmt.Fprintf(w, "`go run ./bench/cmd/multiclass -splits %d`; no tuning, the settings below.\n\n", *splits)
	fmt.Fprintf(w, "| method | settings |")
	for _, s := range sets {
		fmt.Fprintf(w, " %s |", s.name)
	}
	fmt.Fprintf(w, " fit time |\n|---|---|%s---|\n", strings.Repeat("---|", len(sets)))
	for _, r := range runs {
		if *methods != "" && !strings.Contains(","+*methods+",", ","+r.method+",") {
			continue
		}
		m, err := learners.Lookup(r.method)
		if err != nil {
			fail(err)
		}
		fmt.Fprintf(w, "| %s | %s |", r.method, strings.Join(r.params, " "))
		var spent time.Duration
		for _, s := range sets {
			ds, err := dataset.LoadCSV(filepath.Join(*data, s.name, s.name+"_multiclass.csv"), dataset.CSVOptions{})
			if err != nil {
				fail(err)
			}
			var sum, sum2 float64
			for seed := 1; seed <= *splits; seed++ {
				train, test := dataset.StratifiedSplit(ds.Y, 0.3, uint64(seed))
				tr, te := ds.Subset(train), ds.Subset(test)
				cfg := m.NewConfig()
				for _, kv := range append([]string{"task=multiclass"}, r.params...) {
					k, v, _ := strings.Cut(kv, "=")
					if err := learners.SetParam(cfg, k, v); err != nil {
						fail(err)
					}
				}
				start := time.Now()
				model, err := m.Fit(context.Background(), tr.Matrix(), tr.Y, cfg, nil)
				spent += time.Since(start)
				if err != nil {
					fail(fmt.Errorf("%s on %s, split %d: %w", r.method, s.name, seed, err))
				}
				pred := make([]float64, te.N)
				if err := model.PredictBatch(pred, te.Matrix()); err != nil {
					fail(err)
				}
				ok := 0
				for i, p := range pred {
					if p == te.Y[i] {
						ok++
					}
				}
				acc := 100 * float64(ok) / float64(te.N)
				sum, sum2 = sum+acc, sum2+acc*acc
			}
			n := float64(*splits)
			mean := sum / n
			sd := math.Sqrt(math.Max(0, sum2/n-mean*mean))
			fmt.Fprintf(w, " %.1f ± %.1f |", mean, sd)
		}
		fmt.Fprintf(w, " %.2fs |\n", spent.Seconds())
	}
	fmt.Fprintf(w, "| XGBoost (issue) | depth 5, 100 trees |")
	for _, s := range sets {
		fmt.Fprintf(w, " %.1f |", s.xgboost)
	}
	fmt.Fprintf(w, " |\n| RBF SVC (issue) | |")
	for _, s := range sets {
		fmt.Fprintf(w, " %.1f |", s.svc)
	}
	fmt.Fprintln(w, " |")
	if err := result.Commit(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "multiclass:", err)
	os.Exit(1)
}
