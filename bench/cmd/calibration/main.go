// Command calibration measures the test log loss, Brier score and
// accuracy of the binary probabilities of GBRFF2, calibrated (the default)
// and not, and of rks, on heart, australian and pima (-sets; "binary": the
// 16 binary sets of the GBRFF paper), and the CPU seconds of their fits:
// the mean over
// stratified 70/30 splits (seeds 1..-splits), every run on the same
// splits in the same process, each learner fitted on the raw training
// part (every learner standardises inside Fit on its training rows only);
// it writes a Markdown table and, with -png, a reliability diagram of
// every run (the test rows of all sets and splits pooled, 10 bins of the
// predicted probability of the larger class).
//
//	go run ./bench/cmd/calibration -out bench/results/gbrff-calibration.md -png bench/results/gbrff-reliability.png
//	go run ./bench/cmd/calibration -sets binary -splits 3 -oracle=false -runs 'gbrff2:calibration=cv threads=1;gbrff2:threads=1'
//
// The summary table gives, per run, the mean over the sets of the test
// log loss and accuracy and the total fit CPU seconds (every split).
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/bench/internal/summary"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/internal/cputime"
	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/rks"
)

// binarySets are the 16 binary sets of the GBRFF paper's Table 1, smallest
// first (-sets binary).
var binarySets = []string{"wine", "sonar", "newthyroid", "heart", "bupa", "iono", "wdbc", "balance",
	"australian", "pima", "vehicle", "german", "splice", "spambase", "occupancy", "bankmarketing"}

var defaultRuns = "rks:;gbrff2:calibration=none;gbrff2:;gbrff2:learningrate=0.1 calibration=none;gbrff2:learningrate=0.1"

func main() {
	data := flag.String("data", filepath.Join("..", "shared", "datasets"), "the data sets' directory")
	splits := flag.Int("splits", 10, "stratified 70/30 splits (seeds 1..N)")
	runs := flag.String("runs", defaultRuns, "semicolon-separated runs, each method:key=value ...")
	out := flag.String("out", "", "write the table to this file (default: stdout)")
	pngPath := flag.String("png", "", "also draw the reliability diagram into this PNG file")
	oracle := flag.Bool("oracle", true, "also report, per run, the log loss of the best sigmoid σ(a·score + b) fitted on each split's test rows (a lower bound for any sigmoid calibration of the model's scores)")
	setList := flag.String("sets", "heart,australian,pima", `comma-separated data sets, or "binary" for the 16 binary sets`)
	flag.Parse()
	result := resultfile.Start(*out)
	w := result.Writer()
	sets := strings.Split(*setList, ",")
	if *setList == "binary" {
		sets = binarySets
	}
	fmt.Fprintf(w, "# Binary probabilities: test log loss / Brier score (accuracy %%), mean over %d stratified 70/30 splits\n\n", *splits)
	oflag := ""
	if *oracle {
		oflag = " -oracle"
	}
	setsFlag := ""
	if *setList != "heart,australian,pima" {
		setsFlag = " -sets " + *setList
	}
	fmt.Fprintf(w, "`go run ./bench/cmd/calibration%s -splits %d%s -runs '%s'`\n\n", setsFlag, *splits, oflag, *runs)
	fmt.Fprintf(w, "| method | settings | %s |\n|---|---|%s\n", strings.Join(sets, " | "), strings.Repeat("---|", len(sets)))
	var curves []curve
	var oracleRows, pairedRows, summaryRows []string
	// perSplit[set][split]: the first run's test log loss, the reference
	// of the paired differences
	var first [][]float64
	for _, run := range strings.Split(*runs, ";") {
		method, params, _ := strings.Cut(strings.TrimSpace(run), ":")
		cv := curve{name: strings.TrimSpace(method + " " + params)}
		m, err := learners.Lookup(method)
		if err != nil {
			fail(err)
		}
		fmt.Fprintf(w, "| %s | %s |", method, params)
		oracleRow := fmt.Sprintf("| %s | %s |", method, params)
		pairedRow := oracleRow
		if first == nil {
			first = make([][]float64, len(sets))
		}
		var meanLL, meanAcc, fitCPU float64
		for si, name := range sets {
			ds, err := dataset.LoadCSV(filepath.Join(*data, name, name+".csv"), dataset.CSVOptions{})
			if err != nil {
				fail(err)
			}
			var ll, brier, acc, oll float64
			var diffs []float64
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
				c0 := cputime.Process()
				model, err := m.Fit(context.Background(), tr.Matrix(), tr.Y, cfg, nil)
				fitCPU += (cputime.Process() - c0).Seconds()
				if err != nil {
					fail(fmt.Errorf("%s on %s: %w", method, name, err))
				}
				cm := model.(learners.ClassModel)
				p := make([]float64, 2)
				var l, bs float64
				ok := 0
				var ss []float64
				var ks []int
				for i := 0; i < te.N; i++ {
					if err := cm.Probabilities(p, te.Row(i)); err != nil {
						fail(err)
					}
					k := 0
					if te.Y[i] == cm.Classes()[1] {
						k = 1
					}
					l -= math.Log(math.Max(p[k], 1e-15))
					bs += (p[1] - float64(k)) * (p[1] - float64(k))
					cv.add(p[1], k)
					if *oracle {
						ss, ks = append(ss, model.(scorer).Score(te.Row(i))), append(ks, k)
					}
					if model.Predict(te.Row(i)) == te.Y[i] {
						ok++
					}
				}
				ll += l / float64(te.N)
				if len(first[si]) < *splits {
					first[si] = append(first[si], l/float64(te.N))
				} else {
					diffs = append(diffs, l/float64(te.N)-first[si][seed-1])
				}
				brier += bs / float64(te.N)
				if *oracle {
					oll += oracleLogLoss(ss, ks)
				}
				acc += 100 * float64(ok) / float64(te.N)
			}
			n := float64(*splits)
			fmt.Fprintf(w, " %.3f / %.3f (%.1f) |", ll/n, brier/n, acc/n)
			meanLL += ll / n / float64(len(sets))
			meanAcc += acc / n / float64(len(sets))
			oracleRow += fmt.Sprintf(" %.3f |", oll/n)
			pairedRow += " " + meanSE(diffs) + " |"
		}
		fmt.Fprintln(w)
		curves = append(curves, cv)
		oracleRows = append(oracleRows, oracleRow)
		pairedRows = append(pairedRows, pairedRow)
		summaryRows = append(summaryRows, fmt.Sprintf("| %s | %s | %.4f | %.2f | %.2f |", method, params, meanLL, meanAcc, fitCPU))
	}
	fmt.Fprintf(w, "\nMean over the %d sets of the test log loss and accuracy (%%), total fit CPU seconds of all sets and splits\n\n", len(sets))
	fmt.Fprintf(w, "| method | settings | mean log loss | mean accuracy | fit CPU s |\n|---|---|--:|--:|--:|\n")
	for _, r := range summaryRows {
		fmt.Fprintln(w, r)
	}
	fmt.Fprintf(w, "\nTest log loss minus the first run's on the same split (mean ± standard error over the splits; negative: better than the first run)\n\n")
	fmt.Fprintf(w, "| method | settings | %s |\n|---|---|%s\n", strings.Join(sets, " | "), strings.Repeat("---|", len(sets)))
	for _, r := range pairedRows[1:] {
		fmt.Fprintln(w, r)
	}
	if *oracle {
		fmt.Fprintf(w, "\nLower bound (not a calibration): test log loss of σ(a·score + b) with a, b fitted on the same test rows, mean over the splits\n\n")
		fmt.Fprintf(w, "| method | settings | %s |\n|---|---|%s\n", strings.Join(sets, " | "), strings.Repeat("---|", len(sets)))
		for _, r := range oracleRows {
			fmt.Fprintln(w, r)
		}
	}
	if err := result.Commit(); err != nil {
		fail(err)
	}
	if *pngPath != "" {
		if err := drawReliability(*pngPath, curves); err != nil {
			fail(err)
		}
	}
}

// meanSE formats the mean of d ± its standard error.
func meanSE(d []float64) string {
	if len(d) < 2 {
		return "–"
	}
	m, se := summary.MeanSE(d)
	return fmt.Sprintf("%+.3f ± %.3f", m, se)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "calibration:", err)
	os.Exit(1)
}
