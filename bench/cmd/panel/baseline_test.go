package main

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

func TestTrivialScores(t *testing.T) {
	// training rows 0..5: three −1, two +1, one 2 (multiclass labels);
	// test rows 6..9: +1, −1, −1, 3 (a class the training rows lack)
	y := []float64{-1, 1, -1, 2, 1, -1, 1, -1, -1, 3}
	sp := split{Train: []int{0, 1, 2, 3, 4, 5}, Test: []int{6, 7, 8, 9}}
	got := trivialScores(y, learners.Multiclass, sp)
	wantLL := -(math.Log(2.0/6) + 2*math.Log(3.0/6) + math.Log(1e-15)) / 4
	if got.Accuracy != 0.5 || math.Abs(got.LogLoss-wantLL) > 1e-12 || !math.IsNaN(got.RMSE) {
		t.Fatalf("classification: %+v, want accuracy 0.5, log loss %v", got, wantLL)
	}
	// a tie goes to the smallest label: −1 and +1 twice each, test all +1
	tie := trivialScores([]float64{1, -1, 1, -1, 1}, learners.Binary, split{Train: []int{0, 1, 2, 3}, Test: []int{4}})
	if tie.Accuracy != 0 || math.Abs(tie.LogLoss-math.Log(2)) > 1e-15 {
		t.Fatalf("tie: %+v", tie)
	}
	// regression: training mean 2, test targets 1 and 5 → RMSE √((1+9)/2)
	r := trivialScores([]float64{1, 3, 1, 5}, learners.Regression, split{Train: []int{0, 1}, Test: []int{2, 3}})
	if r.RMSE != math.Sqrt(5) || !math.IsNaN(r.Accuracy) || !math.IsNaN(r.LogLoss) {
		t.Fatalf("regression: %+v", r)
	}
}

func TestOffences(t *testing.T) {
	recs := map[string]*record{}
	add := func(l, set string, split int, a, ll float64) {
		r := &record{Learner: l, Set: set, Split: split, Accuracy: acc(a), LogLoss: acc(ll)}
		recs[r.key()] = r
	}
	addR := func(l, set string, split int, rmse float64) {
		r := &record{Learner: l, Set: set, Split: split, RMSE: acc(rmse)}
		recs[r.key()] = r
	}
	// heart: the trivial predictor scores 0.6 / 0.7 and 0.6 / 0.7 (means 0.6, 0.7)
	add("good", "heart", 0, 0.8, 0.4)
	add("good", "heart", 1, 0.8, 0.4)
	add("worse", "heart", 0, 0.5, 0.8) // below on accuracy, above on log loss
	add("worse", "heart", 1, 0.6, 0.7)
	add("even", "heart", 0, 0.6, 0.7) // the trivial scores exactly: no offence
	add("even", "heart", 1, 0.6, 0.7)
	addR("good", "casp", 0, 1)
	addR("worse", "casp", 0, 3)
	p := newPanel(recs)
	tb := trivialBySet{
		"heart": {0: {0.6, 0.7, math.NaN()}, 1: {0.6, 0.7, math.NaN()}},
		"casp":  {0: {math.NaN(), math.NaN(), 2}},
	}
	var got []string
	for _, o := range p.offences(tb) {
		got = append(got, o.learner+" "+o.set+" "+o.metric)
	}
	want := "worse heart accuracy|worse heart log loss|worse casp RMSE"
	if strings.Join(got, "|") != want {
		t.Fatalf("offences %q, want %q", got, want)
	}
	// a split the trivial scores lack: the cell is not judged
	delete(tb["heart"], 1)
	for _, o := range p.offences(tb) {
		if o.set == "heart" {
			t.Fatalf("judged a cell on a split without trivial scores: %+v", o)
		}
	}
}

func TestLoadTrivialFromSplits(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	writeToySet(t, data)
	s, _ := lookupSet("wine")
	ds, err := loadSet(data, s)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := writeSplits(out, s, ds.Y, 2)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := lookupSet("heart")
	tb, missing := loadTrivial(data, out, []panelSet{s, h})
	if len(missing) != 1 || missing[0] != "heart" || len(tb["wine"]) != 2 {
		t.Fatalf("missing %v, trivial %v", missing, tb)
	}
	if want, got := trivialScores(ds.Y, s.Task, sp[1]), tb["wine"][1]; got.Accuracy != want.Accuracy || got.LogLoss != want.LogLoss {
		t.Fatalf("split 1: %+v, want %+v", got, want)
	}
	// a split file naming rows the data lack is not used
	if err := os.WriteFile(splitPath(out, "wine"), []byte(`{"set":"wine","rows":`+strconv.Itoa(ds.N)+`,"splits":[{"seed":0,"train":[0],"test":[100000]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if tb, missing := loadTrivial(data, out, []panelSet{s}); len(tb) != 0 || len(missing) != 1 {
		t.Fatalf("bad split file: trivial %v, missing %v", tb, missing)
	}
}
