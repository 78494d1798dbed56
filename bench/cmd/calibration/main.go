// Command calibration measures the test log loss (and accuracy) of the
// binary probabilities of GBRFF2, calibrated (the default) and not, and of
// rks, on heart, australian and pima: the mean over stratified 70/30
// splits (seeds 1..-splits), each learner standardising on its training
// part; it writes a Markdown table and, with -png, a reliability diagram
// of every run (the test rows of all sets and splits pooled, 10 bins of
// the predicted probability of the larger class).
//
//	go run ./bench/cmd/calibration -out bench/results/gbrff-calibration.md -png bench/results/gbrff-reliability.png
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/rks"
)

var defaultRuns = "rks:;gbrff2:calibration=none;gbrff2:"

func main() {
	data := flag.String("data", filepath.Join("..", "shared", "datasets"), "the data sets' directory")
	splits := flag.Int("splits", 10, "stratified 70/30 splits (seeds 1..N)")
	runs := flag.String("runs", defaultRuns, "semicolon-separated runs, each method:key=value ...")
	out := flag.String("out", "", "write the table to this file (default: stdout)")
	pngPath := flag.String("png", "", "also draw the reliability diagram into this PNG file")
	flag.Parse()
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		w = f
	}
	sets := []string{"heart", "australian", "pima"}
	fmt.Fprintf(w, "# Binary probabilities: test log loss (accuracy %%), mean over %d stratified 70/30 splits\n\n", *splits)
	fmt.Fprintf(w, "`go run ./bench/cmd/calibration -splits %d -runs '%s'`\n\n", *splits, *runs)
	fmt.Fprintf(w, "| method | settings | %s |\n|---|---|%s\n", strings.Join(sets, " | "), strings.Repeat("---|", len(sets)))
	var curves []curve
	for _, run := range strings.Split(*runs, ";") {
		method, params, _ := strings.Cut(strings.TrimSpace(run), ":")
		cv := curve{name: strings.TrimSpace(method + " " + params)}
		m, err := learners.Lookup(method)
		if err != nil {
			fail(err)
		}
		fmt.Fprintf(w, "| %s | %s |", method, params)
		for _, name := range sets {
			ds, err := dataset.LoadCSV(filepath.Join(*data, name, name+".csv"), dataset.CSVOptions{})
			if err != nil {
				fail(err)
			}
			var ll, acc float64
			for seed := 1; seed <= *splits; seed++ {
				train, test := dataset.StratifiedSplit(ds.Y, 0.3, uint64(seed))
				tr, te := ds.Subset(train), ds.Subset(test)
				cfg := m.NewConfig()
				for _, kv := range strings.Fields(params) {
					k, v, _ := strings.Cut(kv, "=")
					if err := learners.SetParam(cfg, k, v); err != nil {
						fail(err)
					}
				}
				model, err := m.Fit(context.Background(), tr.Matrix(), tr.Y, cfg, nil)
				if err != nil {
					fail(fmt.Errorf("%s on %s: %w", method, name, err))
				}
				cm := model.(learners.ClassModel)
				p := make([]float64, 2)
				var l float64
				ok := 0
				for i := 0; i < te.N; i++ {
					if err := cm.Probabilities(p, te.Row(i)); err != nil {
						fail(err)
					}
					k := 0
					if te.Y[i] == cm.Classes()[1] {
						k = 1
					}
					l -= math.Log(math.Max(p[k], 1e-15))
					cv.add(p[1], k)
					if model.Predict(te.Row(i)) == te.Y[i] {
						ok++
					}
				}
				ll += l / float64(te.N)
				acc += 100 * float64(ok) / float64(te.N)
			}
			n := float64(*splits)
			fmt.Fprintf(w, " %.3f (%.1f) |", ll/n, acc/n)
		}
		fmt.Fprintln(w)
		curves = append(curves, cv)
	}
	if *pngPath != "" {
		if err := drawReliability(*pngPath, curves); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "calibration:", err)
	os.Exit(1)
}
