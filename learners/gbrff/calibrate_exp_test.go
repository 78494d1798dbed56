//go:build calexp

package gbrff

// The experiment behind the calibration recipe (bench/results/
// gbrff-calibration.md): on heart, australian and pima (10 stratified
// 70/30 splits, the default Config), the test log loss of the temperature
// and of Platt's slope and intercept fitted on out-of-fold scores of 3, 5
// and 10 folds whose models run T rounds or the final model's rounds
// scaled by their share of the rows (foldRounds), and the standard
// deviation of the out-of-fold scores against the final model's test
// scores. Not part of the test run:
//
//	go test -tags calexp -run CalibrationRecipes -v ./learners/gbrff/

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners/internal/kit"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// plattFit fits p = σ(a·s + b) to the labels y (±1) with Platt's targets,
// by Newton's method with backtracking from a = 2, b = 0.
func plattFit(s, y []float64) (a, b float64) {
	var np, nn float64
	for _, v := range y {
		if v > 0 {
			np++
		} else {
			nn++
		}
	}
	t := make([]float64, len(y))
	for i, v := range y {
		t[i] = 1 / (nn + 2)
		if v > 0 {
			t[i] = (np + 1) / (np + 2)
		}
	}
	loss := func(a, b float64) float64 {
		var l float64
		for i := range s {
			f := a*s[i] + b
			l += math.Log1p(math.Exp(-math.Abs(f))) + math.Max(f, 0) - t[i]*f
		}
		return l
	}
	a, b = 2, 0
	cur := loss(a, b)
	for it := 0; it < 100; it++ {
		var ga, gb, haa, hab, hbb float64
		for i := range s {
			p := 1 / (1 + math.Exp(-(a*s[i] + b)))
			r, w := p-t[i], p*(1-p)
			ga, gb = ga+s[i]*r, gb+r
			haa, hab, hbb = haa+s[i]*s[i]*w, hab+s[i]*w, hbb+w
		}
		haa, hbb = haa+1e-12, hbb+1e-12
		det := haa*hbb - hab*hab
		da, db := -(hbb*ga-hab*gb)/det, -(haa*gb-hab*ga)/det
		moved := false
		for step := 1.0; step > 1e-10; step /= 2 {
			if l := loss(a+step*da, b+step*db); l <= cur+1e-4*step*(ga*da+gb*db) {
				a, b, cur, moved = a+step*da, b+step*db, l, true
				break
			}
		}
		if !moved || math.Abs(ga)+math.Abs(gb) < 1e-10 {
			break
		}
	}
	return a, b
}

// sigmoidLoss is the mean log loss of σ(a·s + b) on the labels y (±1).
func sigmoidLoss(s, y []float64, a, b float64) float64 {
	var l float64
	for i := range s {
		f := a*s[i] + b
		if y[i] < 0 {
			f = -f
		}
		l += math.Log1p(math.Exp(-math.Abs(f))) + math.Max(-f, 0)
	}
	return l / float64(len(s))
}

func TestCalibrationRecipes(t *testing.T) {
	const splits = 10
	for _, name := range []string{"heart", "australian", "pima"} {
		ds, err := dataset.LoadCSV(filepath.Join(learnertest.DatasetPath(), name, name+".csv"), dataset.CSVOptions{})
		if err != nil {
			t.Skip(err)
		}
		type row struct{ temp, platt, a, sd float64 }
		res := map[string]*row{}
		var order []string
		var sdTest, oracleT, oracleP float64
		for seed := uint64(1); seed <= splits; seed++ {
			train, test := dataset.StratifiedSplit(ds.Y, 0.3, seed)
			tr, te := ds.Subset(train), ds.Subset(test)
			cfg := Config{Calibration: CalibrationNone}
			m, err := Fit(context.Background(), tr.Matrix(), tr.Y, cfg)
			if err != nil {
				t.Fatal(err)
			}
			ys, st, yt := make([]float64, tr.N), make([]float64, te.N), make([]float64, te.N)
			for i, v := range tr.Y {
				ys[i], _ = kit.EncodeLabel(m.Labels(), v)
			}
			for i := range st {
				st[i] = m.Score(te.Row(i))
				yt[i], _ = kit.EncodeLabel(m.Labels(), te.Y[i])
			}
			sdTest += sd(st) / splits
			oracleT += sigmoidLoss(st, yt, firstOf(temperature(st, yt, nil)), 0) / splits
			oa, ob := plattFit(st, yt)
			oracleP += sigmoidLoss(st, yt, oa, ob) / splits
			for _, k := range []int{3, 5, 10} {
				for _, scaled := range []bool{false, true} {
					key := fmt.Sprintf("%d folds, T = %d", k, m.Rounds())
					sub := cfg
					if scaled {
						sub.T = foldRounds(m.Rounds(), k, 0)
						key = fmt.Sprintf("%d folds, T = %d (scaled)", k, sub.T)
					}
					folds, err := dataset.StratifiedKFold(ys, k, seed^0xca1b)
					if err != nil {
						t.Fatal(err)
					}
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
					r := res[key]
					if r == nil {
						r = new(row)
						res[key] = r
						order = append(order, key)
					}
					a, _, _ := temperature(so, ys, nil)
					pa, pb := plattFit(so, ys)
					r.temp += sigmoidLoss(st, yt, a, 0) / splits
					r.platt += sigmoidLoss(st, yt, pa, pb) / splits
					r.a += a / splits
					r.sd += sd(so) / splits
				}
			}
		}
		out := fmt.Sprintf("\n%s: test scores s.d. %.2f; on the test rows themselves: temperature %.3f, Platt %.3f\n| out-of-fold scores | s.d. | temperature | log loss, temperature | log loss, Platt |\n|---|---|---|---|---|\n", name, sdTest, oracleT, oracleP)
		for _, k := range order {
			r := res[k]
			out += fmt.Sprintf("| %s | %.2f | %.3f | %.3f | %.3f |\n", k, r.sd, r.a, r.temp, r.platt)
		}
		t.Log(out)
	}
}

// firstOf returns a of temperature's (a, evals, err).
func firstOf(a float64, _ int, _ error) float64 { return a }
