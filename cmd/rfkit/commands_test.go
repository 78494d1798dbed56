package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/asm"
)

func TestCV(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 120, 7, -1, 1), true))
	r := rfkit(t, "cv", "-method", "rks", "-data", data, "-param", "features=60", "-grid", "gamma=0.0001,4", "-folds", "3", "-seed", "2").ok(t)
	ls := lines(r.stdout)
	if len(ls) != 5 {
		t.Fatalf("output:\n%s", r.stdout)
	}
	for _, want := range []string{"rks on " + data + ": 120 rows, binary, 3-fold stratified", "setting", "gamma=0.0001", "gamma=4", "best: gamma=4 (accuracy "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in\n%s", want, r.stdout)
		}
	}
	if !strings.HasSuffix(ls[3], "*") || strings.HasSuffix(ls[2], "*") {
		t.Errorf("best not marked:\n%s", r.stdout)
	}
	// Regression: random folds, RMSE.
	dir2 := t.TempDir()
	reg := writeFile(t, dir2, "r.csv", "a,y\n1,0.5\n2,0.7\n3,0.1\n4,0.9\n5,0.3\n6,0.4\n")
	r = rfkit(t, "cv", "-method", "rks", "-data", reg, "-grid", "gamma=1,2", "-grid", "lambda=0.1", "-folds", "2").ok(t)
	if !strings.Contains(r.stdout, "regression, 2-fold random cross-validation, RMSE") || !strings.Contains(r.stdout, "gamma=2 lambda=0.1") {
		t.Errorf("regression cv:\n%s", r.stdout)
	}
	rfkit(t, "cv", "-method", "rks", "-data", data, "-grid", "gamma=1", "-folds", "500").fails(t, 1, "500 folds for 120 samples")
}

func TestMeanStd(t *testing.T) {
	m, s := meanStd([]float64{-1, -2, -3}, -1)
	if m != 2 || s != 1 {
		t.Errorf("meanStd = %v, %v", m, s)
	}
	if m, s := meanStd([]float64{0.5}, 1); m != 0.5 || s != 0 {
		t.Errorf("one fold: %v, %v", m, s)
	}
}

func TestImportance(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 60, 1, 0, 1), true))
	model := filepath.Join(dir, "rks.model")
	rfkit(t, "train", "-method", "rks", "-data", data, "-model", model).ok(t)
	rfkit(t, "importance", "-model", model).fails(t, 1, "a rks model has no learned variable importance")

	// A method that learns one (when linked in): the ranking names the CSV
	// columns.
	if slices.Contains(methodNames(), "rrf") {
		model := filepath.Join(dir, "rrf.model")
		rfkit(t, "train", "-method", "rrf", "-data", data, "-model", model).ok(t)
		r := rfkit(t, "importance", "-model", model).ok(t)
		if ls := lines(r.stdout); len(ls) != 3 || !strings.Contains(r.stdout, " x0 ") || !strings.Contains(r.stdout, " x1 ") {
			t.Errorf("rrf importance:\n%s", r.stdout)
		}
		if ls := lines(rfkit(t, "importance", "-model", model, "-top", "1").ok(t).stdout); len(ls) != 2 {
			t.Errorf("-top 1: %q", ls)
		}
		// with -data: the permutation importance, the learned one beside it
		r = rfkit(t, "importance", "-model", model, "-data", data).ok(t)
		if ls := lines(r.stdout); len(ls) != 4 || !strings.HasPrefix(ls[1], "rank  input  name          drop        std         learned") {
			t.Errorf("rrf permutation importance:\n%s", r.stdout)
		}
	}

	var b bytes.Buffer
	printImportance(&b, []float64{0.1, 3, 0.5, 3}, []string{"a", "b", "", "d"}, 3)
	want := "rank  input  name          importance\n" +
		"1     1      b             3\n" +
		"2     3      d             3\n" +
		"3     2      -             0.5\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestPermutationImportance: importance -data works for a model without a
// learned importance (rks), for a classifier by accuracy or log loss and
// for a regression by RMSE; -json carries the same numbers; the output
// does not depend on -threads; the flags that need -data are refused
// without it.
func TestPermutationImportance(t *testing.T) {
	dir := t.TempDir()
	// two moons inputs and two pure-noise inputs
	s := moons(t, 300, 1, -1, 1)
	X := make([]float64, 0, s.N*4)
	for i := range s.N {
		X = append(X, s.Row(i)...)
		X = append(X, float64(i%7)/7, float64((i*5)%11)/11)
	}
	s.X, s.D = X, 4
	data := writeFile(t, dir, "d.csv", csvText(s, true))
	model := filepath.Join(dir, "rks.model")
	rfkit(t, "train", "-method", "rks", "-data", data, "-model", model).ok(t)
	r := rfkit(t, "importance", "-model", model, "-data", data, "-repeats", "3", "-seed", "2").ok(t)
	ls := lines(r.stdout)
	if len(ls) != 6 || !strings.HasPrefix(ls[0], "permutation importance: drop of accuracy (baseline ") ||
		!strings.Contains(ls[0], "on 300 rows), mean and std over 3 shuffles per input, seed 2") ||
		strings.Contains(r.stdout, "learned") {
		t.Fatalf("rks importance:\n%s", r.stdout)
	}
	if top := strings.Fields(ls[2])[2] + " " + strings.Fields(ls[3])[2]; top != "x0 x1" && top != "x1 x0" {
		t.Errorf("the moons inputs are not first:\n%s", r.stdout)
	}
	if other := rfkit(t, "importance", "-model", model, "-data", data, "-repeats", "3", "-seed", "2", "-threads", "1").ok(t); other.stdout != r.stdout {
		t.Errorf("-threads 1 changed the output:\n%s\nvs\n%s", other.stdout, r.stdout)
	}

	var res importanceResult
	j := rfkit(t, "importance", "-model", model, "-data", data, "-metric", "logloss", "-json", "-top", "2").ok(t)
	if err := json.Unmarshal([]byte(j.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Metric != "logloss" || res.Repeats != 5 || res.N != 300 || res.Baseline == nil || len(res.Inputs) != 2 ||
		res.Inputs[0].Rank != 1 || res.Inputs[0].Drop == nil || res.Inputs[0].Std == nil || res.Inputs[0].Learned != nil ||
		!strings.HasPrefix(res.Inputs[0].Name, "x") || *res.Inputs[0].Drop < *res.Inputs[1].Drop {
		t.Errorf("-json: %s", j.stdout)
	}

	// a regression: RMSE
	reg := writeFile(t, dir, "r.csv", "a,b,y\n"+strings.Repeat("0,1,0.5\n1,0,1.5\n2,1,2.5\n3,0,3.5\n", 10))
	rmodel := filepath.Join(dir, "reg.model")
	rfkit(t, "train", "-method", "rks", "-task", "regression", "-data", reg, "-model", rmodel).ok(t)
	if r := rfkit(t, "importance", "-model", rmodel, "-data", reg).ok(t); !strings.Contains(r.stdout, "drop of rmse") {
		t.Errorf("regression:\n%s", r.stdout)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-metric", "logloss"}, "-metric applies to the permutation importance, which needs -data"},
		{[]string{"-repeats", "3"}, "-repeats applies"},
		{[]string{"-data", data, "-repeats", "0"}, `invalid value "0" for flag -repeats: want an integer from 1 to 1000000`},
		{[]string{"-data", data, "-threads", "-1"}, `invalid value "-1" for flag -threads: want an integer from 0 to 4096`},
	} {
		rfkit(t, append([]string{"importance", "-model", model}, c.args...)...).fails(t, 2, c.want)
	}
	rfkit(t, "importance", "-model", model, "-data", data, "-metric", "rmse").fails(t, 1, `metric "rmse" does not apply to a binary model`)
	rfkit(t, "importance", "-model", rmodel, "-data", data).fails(t, 1, "columns")
}

func TestDemo(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "demo.png")
	save := filepath.Join(dir, "data")
	r := rfkit(t, "demo", "-ntrain", "200", "-ntest", "100", "-rounds", "20", "-features", "50", "-res", "40", "-png", img, "-save", save).ok(t)
	for _, want := range []string{"SIMD path " + asm.Selected(), "checkerboard  gbrff2", "checkerboard  rks", "spirals       gbrff2", "spirals       rks", "ns/row", "wrote the decision boundaries to " + img} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in\n%s", want, r.stdout)
		}
	}
	f, err := os.Open(img)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width < 400 || cfg.Height < 400 {
		t.Errorf("PNG %+v, %v", cfg, err)
	}
	for _, name := range []string{"checkerboard-train.csv", "checkerboard-test.csv", "spirals-train.csv", "spirals-test.csv"} {
		if _, err := os.Stat(filepath.Join(save, name)); err != nil {
			t.Error(err)
		}
	}
	// The saved data feed train and eval.
	model := filepath.Join(dir, "s.model")
	rfkit(t, "train", "-method", "gbrff2", "-param", "t=20", "-param", "gamma=4", "-data", filepath.Join(save, "spirals-train.csv"), "-model", model).ok(t)
	if e := evalJSON(t, "-model", model, "-data", filepath.Join(save, "spirals-test.csv")); e.N != 100 || e.Value < 0.8 {
		t.Errorf("eval on saved spirals: %+v", e)
	}
}

func TestBench(t *testing.T) {
	r := rfkit(t, "bench", "-n", "64", "-benchtime", "1ms", "-count", "2").ok(t)
	paths := asm.Paths()
	if got, want := len(lines(r.stdout)), 2+4*(len(paths)+1); got != want {
		t.Errorf("%d lines, want %d:\n%s", got, want, r.stdout)
	}
	for _, k := range []string{"cos", "sin", "sincos", "exp"} {
		for _, p := range append(paths, "math") {
			if !strings.Contains(r.stdout, "\n"+pad(k, 6)+"  "+pad(p, 7)+"  ") {
				t.Errorf("no row for %s on %s in\n%s", k, p, r.stdout)
			}
		}
	}
	if !strings.Contains(r.stdout, "selected path "+asm.Selected()) {
		t.Errorf("no selected path in %s", r.stdout)
	}
}

func pad(s string, n int) string { return s + strings.Repeat(" ", n-len(s)) }

func TestProgressBar(t *testing.T) {
	saved := isTerminal
	defer func() { isTerminal = saved }()
	isTerminal = func(io.Writer) bool { return true }
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 100, 1, 0, 1), true))
	r := rfkit(t, "train", "-method", "gbrff2", "-param", "t=10", "-data", data, "-model", filepath.Join(dir, "m")).ok(t)
	if !strings.Contains(r.stderr, "train gbrff2") || !strings.Contains(r.stderr, "100%") || !strings.Contains(r.stderr, "(10/10") {
		t.Errorf("no progress bar on the terminal: %q", r.stderr)
	}
	r = rfkit(t, "cv", "-method", "rks", "-data", data, "-grid", "gamma=1,2", "-folds", "2").ok(t)
	if !strings.Contains(r.stderr, "cv rks") || !strings.Contains(r.stderr, "(4/4") {
		t.Errorf("no cv progress bar: %q", r.stderr)
	}
	if r := rfkit(t, "train", "-quiet", "-method", "gbrff2", "-param", "t=10", "-data", data, "-model", filepath.Join(dir, "m")).ok(t); r.stderr != "" || r.stdout != "" {
		t.Errorf("-quiet: %+v", r)
	}
}

// TestImportanceEveryMethod: importance -data ranks the inputs of a model
// of every linked-in method (one fit each with its defaults on 80 rows of
// the moons, by accuracy; srff fits ±1 labels as a regression, by RMSE).
func TestImportanceEveryMethod(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 80, 3, -1, 1), true))
	for _, name := range methodNames() {
		model := filepath.Join(dir, name+".model")
		train := []string{"train", "-method", name, "-data", data, "-model", model}
		if name == "srff" && testing.Short() {
			// λ given: no validation search, which takes about 45 s on
			// these 80 rows without -race and many minutes with it (or
			// under qemu). The importance pass, the subject here, is the
			// same; the full run fits srff at its defaults.
			train = append(train, "-param", "lambda=1e-3")
		}
		rfkit(t, train...).ok(t)
		r := rfkit(t, "importance", "-model", model, "-data", data, "-repeats", "2").ok(t)
		metric := "accuracy"
		if name == "srff" {
			metric = "rmse"
		}
		if ls := lines(r.stdout); len(ls) != 4 || !strings.HasPrefix(ls[0], "permutation importance: drop of "+metric) {
			t.Errorf("%s:\n%s", name, r.stdout)
		}
	}
}
