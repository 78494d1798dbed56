//go:build calexp

package gbrff

// The experiment behind the default calibration recipe (bench/results/
// gbrff-calibration.md): on the 16 binary sets, stratified 70/30 splits,
// one final model per split (Calibration none, one thread), the test log
// loss of σ(a·score) with the temperature a of each recipe, and the CPU
// time of the recipe over the final model's fit. Not part of the test run:
//
//	go test -tags calexp -run CalibrationCost -v -timeout 1h ./learners/gbrff/

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

var binarySets = []string{"wine", "sonar", "newthyroid", "heart", "bupa", "iono", "wdbc", "balance",
	"australian", "pima", "vehicle", "german", "splice", "spambase", "occupancy", "bankmarketing"}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heldOutScores fits a model of share s of the rows of tr (stratified)
// with round(s·rounds) rounds and returns its scores on the other rows
// and their labels.
func heldOutScores(t *testing.T, tr *dataset.Dataset, ys []float64, rounds int, s float64, seed uint64) (so, yo []float64) {
	keep, rest := dataset.StratifiedSplit(ys, 1-s, seed^0xca1b)
	sub := Config{Calibration: CalibrationNone, Threads: 1, T: foldRounds(rounds, 2, 1-2*s)}
	ft := tr.Subset(keep)
	fm, err := Fit(context.Background(), ft.Matrix(), ft.Y, sub)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range rest {
		so, yo = append(so, fm.Score(tr.Row(i))), append(yo, ys[i])
	}
	return so, yo
}

func TestCalibrationCost(t *testing.T) {
	splits := 3
	if v, err := strconv.Atoi(os.Getenv("CALEXP_SPLITS")); err == nil {
		splits = v
	}
	type acc struct{ ll, cost float64 }
	res := map[string]map[string]*acc{}
	var recipes []string
	for _, name := range binarySets {
		if testing.Short() && (name == "occupancy" || name == "bankmarketing") {
			continue
		}
		ds, err := dataset.LoadCSV(filepath.Join(learnertest.DatasetPath(), name, name+".csv"), dataset.CSVOptions{})
		if err != nil {
			t.Skip(err)
		}
		res[name] = map[string]*acc{}
		for seed := uint64(1); seed <= uint64(splits); seed++ {
			train, test := dataset.StratifiedSplit(ds.Y, 0.3, seed)
			tr, te := ds.Subset(train), ds.Subset(test)
			cfg := Config{Calibration: CalibrationNone, Threads: 1}
			c0 := cpuNow()
			m, err := Fit(context.Background(), tr.Matrix(), tr.Y, cfg)
			if err != nil {
				t.Fatal(err)
			}
			base := cpuNow() - c0
			ys, st, yt := make([]float64, tr.N), make([]float64, te.N), make([]float64, te.N)
			for i, v := range tr.Y {
				ys[i], _ = kit.EncodeLabel(m.Labels(), v)
			}
			for i := range st {
				st[i] = m.Score(te.Row(i))
				yt[i], _ = kit.EncodeLabel(m.Labels(), te.Y[i])
			}
			add := func(key string, a float64, c0 time.Duration) {
				cost := float64(cpuNow()-c0) / float64(base)
				r := res[name][key]
				if r == nil {
					r = new(acc)
					res[name][key] = r
					if name == binarySets[0] && seed == 1 {
						recipes = append(recipes, key)
					}
				}
				r.ll += sigmoidLoss(st, yt, a, 0) / float64(splits)
				r.cost += cost / float64(splits)
			}
			add("link σ(2F)", 2, cpuNow())
			c0 = cpuNow()
			strain := make([]float64, tr.N)
			for i := range strain {
				strain[i] = m.Score(tr.Row(i))
			}
			add("training scores", firstOf(temperature(strain, ys, nil)), c0)
			for _, k := range []int{2, 5} {
				c0 = cpuNow()
				sub := cfg
				key := fmt.Sprintf("%d folds", k)
				if k < 0 {
					k = -k
					sub.Iterations = 2
					key = fmt.Sprintf("%d folds, 2 L-BFGS iterations", k)
				}
				folds, err := dataset.StratifiedKFold(ys, k, seed^0xca1b)
				if err != nil {
					t.Fatal(err)
				}
				sub.T = foldRounds(m.Rounds(), k, 0)
				so := make([]float64, tr.N)
				for f, idx := range folds {
					ft := tr.Subset(dataset.TrainIndices(folds, f))
					fm, err := Fit(context.Background(), ft.Matrix(), ft.Y, sub)
					if err != nil {
						t.Fatal(err)
					}
					for _, i := range idx {
						so[i] = fm.Score(tr.Row(i))
					}
				}
				add(key, firstOf(temperature(so, ys, nil)), c0)
			}
			for _, s := range []float64{0.5, 0.6} {
				c0 = cpuNow()
				so, yo := heldOutScores(t, tr, ys, m.Rounds(), s, seed)
				add(fmt.Sprintf("one model on %.0f%%", 100*s), firstOf(temperature(so, yo, nil)), c0)
			}
		}
		line := name + ":"
		for _, k := range recipes {
			line += fmt.Sprintf(" [%s %.4f ×%.2f]", k, res[name][k].ll, 1+res[name][k].cost)
		}
		t.Log(line)
	}
	out := "\n| recipe | mean test log loss (16 sets) | mean cost (fit ×) | max cost n ≥ 10⁴ | max cost n < 10⁴ |\n|---|--:|--:|--:|--:|\n"
	sort.Strings(recipes)
	for _, k := range recipes {
		var ll, c, big, small float64
		for _, name := range binarySets {
			r := res[name][k]
			if r == nil {
				continue
			}
			ll += r.ll / float64(len(binarySets))
			c += (1 + r.cost) / float64(len(binarySets))
			if name == "occupancy" || name == "bankmarketing" {
				big = max(big, 1+r.cost)
			} else {
				small = max(small, 1+r.cost)
			}
		}
		out += fmt.Sprintf("| %s | %.4f | %.2f | %.2f | %.2f |\n", k, ll, c, big, small)
	}
	t.Log(out)
}
