//go:build calexp

package gbrff

// The experiment behind the fold rounds of the default calibration
// (bench/results/gbrff-calibration.md): on the 14 binary sets below 10⁴
// training rows (stratified 70/30 splits, the final model at the
// defaults, one thread), per set the test log loss of the class prior, of
// the link σ(2F), of the best temperature of the test scores themselves
// (a bound, not a calibration) and of the temperature (Platt: slope and
// intercept) fitted on out-of-fold scores of each fold recipe (k folds,
// the fold models' rounds, their L-BFGS iterations), with the mean
// temperature and the s.d. of the scores; last, the means over the sets
// and each recipe's cost as fits of the final model. Not part of the test
// run:
//
//	CALEXP_SPLITS=5 go test -tags calexp -run CalibrationScale -v ./learners/gbrff/
//
// (CALEXP_SETS=heart,bupa for some of the sets.)

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners/internal/calib"
	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/internal/vec"
)

func sdOf(s []float64) float64 {
	var m, q float64
	for _, v := range s {
		m += v
	}
	m /= float64(len(s))
	for _, v := range s {
		q += (v - m) * (v - m)
	}
	return math.Sqrt(q / float64(len(s)))
}

func TestCalibrationScale(t *testing.T) {
	splits := 5
	if v, err := strconv.Atoi(os.Getenv("CALEXP_SPLITS")); err == nil {
		splits = v
	}
	sets := binarySets[:14] // occupancy and bankmarketing keep the link
	if v := os.Getenv("CALEXP_SETS"); v != "" {
		sets = strings.Split(v, ",")
	}
	type recipe struct {
		name   string
		k      int
		rounds func(r int) int
		platt  bool
		iters  int
	}
	recipes := []recipe{
		{"2f r/2", 2, func(r int) int { return foldRounds(r, 2, 0) }, false, 0},
		{"2f r/2 platt", 2, func(r int) int { return foldRounds(r, 2, 0) }, true, 0},
		{"2f r/2 it1", 2, func(r int) int { return foldRounds(r, 2, 0) }, false, 1},
		{"2f r/3", 2, func(r int) int { return r / 3 }, false, 0},
		{"2f r/4", 2, func(r int) int { return autoFoldRounds(r) }, false, 0},
		{"2f r/6", 2, func(r int) int { return r / 6 }, false, 0},
		{"5f 4r/5", 5, func(r int) int { return foldRounds(r, 5, 0) }, false, 0},
	}
	tot := map[string]float64{}
	cost := map[string]float64{}
	var totOracle, totLink, totPrior float64
	for _, name := range sets {
		ds, err := dataset.LoadCSV(filepath.Join(learnertest.DatasetPath(), name, name+".csv"), dataset.CSVOptions{})
		if err != nil {
			t.Skip(err)
		}
		line := fmt.Sprintf("%-11s", name)
		var lo, prior, link, sdT float64
		ll := map[string]float64{}
		sds := map[string]float64{}
		as := map[string]float64{}
		var aO float64
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
			var np float64
			for i, v := range tr.Y {
				ys[i], _ = kit.EncodeLabel(m.Labels(), v)
				if ys[i] > 0 {
					np++
				}
			}
			for i := range st {
				st[i] = m.Score(te.Row(i))
				yt[i], _ = kit.EncodeLabel(m.Labels(), te.Y[i])
			}
			p := np / float64(tr.N)
			prior += sigmoidLoss(make([]float64, te.N), yt, 0, math.Log(p/(1-p))) / float64(splits)
			link += sigmoidLoss(st, yt, 2, 0) / float64(splits)
			ro, _ := calib.Temperature(st, yt, nil, calib.Options{Start: temperatureStart(st, nil)})
			lo += sigmoidLoss(st, yt, ro.A, 0) / float64(splits)
			aO += ro.A / float64(splits)
			sdT += sdOf(st) / float64(splits)
			for _, rc := range recipes {
				c0 := cpuNow()
				k := max(rc.k, 2)
				folds, err := dataset.StratifiedKFold(ys, k, seed^0xca1b)
				if err != nil {
					t.Fatal(err)
				}
				sub := cfg
				sub.T = max(1, rc.rounds(m.Rounds()))
				sub.Iterations = rc.iters
				so := make([]float64, tr.N)
				yo := ys
				for f, idx := range folds {
					if rc.k == 1 && f > 0 {
						break
					}
					ft := tr.Subset(dataset.TrainIndices(folds, f))
					fm, err := Fit(context.Background(), ft.Matrix(), ft.Y, sub)
					if err != nil {
						t.Fatal(err)
					}
					for _, i := range idx {
						so[i] = fm.Score(tr.Row(i))
					}
				}
				if rc.k == 1 {
					so, yo = vec.Pick(so, folds[0]), vec.Pick(ys, folds[0])
				}
				var a, b float64
				if rc.platt {
					r, _ := calib.Platt(so, yo, nil, calib.Options{Start: 2, PlattTargets: true})
					a, b = r.A, r.B
				} else {
					a = firstOf(temperature(so, yo, nil))
				}
				cost[rc.name] += float64(cpuNow()-c0) / float64(base) / float64(splits*len(sets))
				ll[rc.name] += sigmoidLoss(st, yt, a, b) / float64(splits)
				sds[rc.name] += sdOf(so) / float64(splits)
				as[rc.name] += a / float64(splits)
			}
		}
		line += fmt.Sprintf(" prior %.3f link %.3f oracle %.3f (a %.3f sd %.2f) |", prior, link, lo, aO, sdT)
		for _, rc := range recipes {
			line += fmt.Sprintf(" %s %.3f (a %.3f sd %.2f)", rc.name, ll[rc.name], as[rc.name], sds[rc.name])
			tot[rc.name] += ll[rc.name] / float64(len(sets))
		}
		totOracle += lo / float64(len(sets))
		totLink += link / float64(len(sets))
		totPrior += prior / float64(len(sets))
		t.Log(line)
	}
	out := fmt.Sprintf("mean: prior %.4f link %.4f oracle %.4f", totPrior, totLink, totOracle)
	for _, rc := range recipes {
		out += fmt.Sprintf(" | %s %.4f ×%.2f", rc.name, tot[rc.name], 1+cost[rc.name])
	}
	t.Log(out)
}
