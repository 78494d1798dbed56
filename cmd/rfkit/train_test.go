package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// checkPredictions checks one prediction per line, each one of labels.
func checkPredictions(t *testing.T, out string, n int, labels ...float64) []float64 {
	t.Helper()
	ls := lines(out)
	if len(ls) != n {
		t.Fatalf("%d predictions, want %d", len(ls), n)
	}
	p := make([]float64, n)
	for i, l := range ls {
		v, err := strconv.ParseFloat(l, 64)
		if err != nil || (labels != nil && !slices.Contains(labels, v)) {
			t.Fatalf("prediction %d: %q, want one of %v", i, l, labels)
		}
		p[i] = v
	}
	return p
}

func evalJSON(t *testing.T, args ...string) evalResult {
	t.Helper()
	r := rfkit(t, append([]string{"eval", "-json"}, args...)...).ok(t)
	var e evalResult
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("eval -json output %q: %v", r.stdout, err)
	}
	return e
}

func TestRoundTripCSV(t *testing.T) {
	dir := t.TempDir()
	// Labels 3 and 7: predictions must come back in the data set's values.
	train := writeFile(t, dir, "train.csv", csvText(moons(t, 300, 1, 3, 7), true))
	testSet := moons(t, 200, 2, 3, 7)
	test := writeFile(t, dir, "test.csv", csvText(testSet, true))
	noLabel := writeFile(t, dir, "nolabel.csv", csvText(testSet, false))
	model := filepath.Join(dir, "m.model")

	r := rfkit(t, "train", "-method", "gbrff2", "-data", train, "-param", "T=30", "-param", "GAMMA=4", "-seed", "3", "-model", model).ok(t)
	if !strings.Contains(r.stdout, "gbrff2: binary on 300 rows × 2 inputs") || !strings.Contains(r.stdout, "wrote "+model) {
		t.Errorf("train output %q", r.stdout)
	}
	if got := files(t, dir); !slices.Equal(got, []string{"m.model", "nolabel.csv", "test.csv", "train.csv"}) {
		t.Errorf("files after train: %v", got)
	}

	p1 := checkPredictions(t, rfkit(t, "predict", "-model", model, "-data", test).ok(t).stdout, 200, 3, 7)
	p2 := checkPredictions(t, rfkit(t, "predict", "-model", model, "-data", noLabel).ok(t).stdout, 200, 3, 7)
	if !slices.Equal(p1, p2) {
		t.Error("predictions differ with and without the label column")
	}
	out := filepath.Join(dir, "pred.txt")
	if r := rfkit(t, "predict", "-model", model, "-data", test, "-out", out).ok(t); r.stdout != "" {
		t.Errorf("predict -out wrote to stdout: %q", r.stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil || !slices.Equal(checkPredictions(t, string(data), 200, 3, 7), p1) {
		t.Errorf("predict -out: %v", err)
	}

	e := evalJSON(t, "-model", model, "-data", test)
	if e.Metric != "accuracy" || e.N != 200 || !(e.Value > 0.95 && e.Value <= 1) {
		t.Errorf("eval: %+v", e)
	}
	ok := 0
	for i, v := range p1 {
		if v == testSet.Y[i] {
			ok++
		}
	}
	if float64(ok)/200 != float64(e.Value) {
		t.Errorf("eval accuracy %v, predictions give %v", e.Value, float64(ok)/200)
	}
	if r := rfkit(t, "eval", "-model", model, "-data", test).ok(t); !strings.HasPrefix(r.stdout, "accuracy ") || !strings.Contains(r.stdout, "(n=200)") {
		t.Errorf("eval text: %q", r.stdout)
	}
	// The same seed gives the same model file.
	model2 := filepath.Join(dir, "m2.model")
	rfkit(t, "train", "-quiet", "-method", "gbrff2", "-data", train, "-param", "t=30", "-param", "gamma=4", "-seed", "3", "-model", model2).ok(t)
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(model2)
	if !slices.Equal(a, b) {
		t.Error("training is not deterministic for a seed")
	}
}

func TestLabelColumn(t *testing.T) {
	dir := t.TempDir()
	s := moons(t, 200, 4, -1, 1)
	// The label first, under another name; a column named y is a feature.
	var b strings.Builder
	b.WriteString("class,x0,y\n")
	for i := 0; i < s.N; i++ {
		row := s.Row(i)
		b.WriteString(strconv.FormatFloat(s.Y[i], 'g', -1, 64) + "," + strconv.FormatFloat(row[0], 'g', -1, 64) + "," + strconv.FormatFloat(row[1], 'g', -1, 64) + "\n")
	}
	data := writeFile(t, dir, "first.csv", b.String())
	for _, label := range []string{"class", "0", "-3"} {
		model := filepath.Join(dir, "m"+label+".model")
		rfkit(t, "train", "-quiet", "-method", "rks", "-param", "gamma=4", "-data", data, "-label", label, "-model", model).ok(t)
		if e := evalJSON(t, "-model", model, "-data", data, "-label", label); e.Value < 0.9 {
			t.Errorf("-label %s: %+v", label, e)
		}
	}
	// Without -label, y (a feature here, with many values) is the target:
	// regression.
	model := filepath.Join(dir, "reg.model")
	r := rfkit(t, "train", "-method", "rks", "-data", data, "-model", model).ok(t)
	if !strings.Contains(r.stdout, "rks: regression") {
		t.Errorf("auto task: %q", r.stdout)
	}
	if e := evalJSON(t, "-model", model, "-data", data); e.Metric != "rmse" || !(e.Value >= 0) {
		t.Errorf("regression eval: %+v", e)
	}
	rfkit(t, "train", "-method", "rks", "-data", data, "-label", "nope", "-model", model).fails(t, 1, `label column "nope" not found`)
}

func TestRoundTripLIBSVM(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "train.libsvm", libsvmText(moons(t, 300, 5, -1, 1)))
	testSet := moons(t, 200, 6, -1, 1)
	test := writeFile(t, dir, "test.svm", libsvmText(testSet))
	model := filepath.Join(dir, "rks.model")
	rfkit(t, "train", "-method", "rks", "-param", "features=200", "-param", "gamma=4", "-data", train, "-model", model).ok(t)
	checkPredictions(t, rfkit(t, "predict", "-model", model, "-data", test).ok(t).stdout, 200, -1, 1)
	if e := evalJSON(t, "-model", model, "-data", test); e.Metric != "accuracy" || e.N != 200 || e.Value < 0.95 {
		t.Errorf("eval: %+v", e)
	}
	// -format overrides the extension.
	txt := writeFile(t, dir, "test.txt", libsvmText(testSet))
	evalJSON(t, "-model", model, "-data", txt, "-format", "libsvm")
	rfkit(t, "eval", "-model", model, "-data", txt).fails(t, 2, "cannot tell the format")
	// A feature index beyond the model's inputs.
	wide := writeFile(t, dir, "wide.libsvm", "1 1:0.5 3:1\n")
	rfkit(t, "predict", "-model", model, "-data", wide).fails(t, 1, "line 1")
}

func TestRegression(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,target\n")
	for i := 0; i < 200; i++ {
		x := float64(i)/100 - 1
		z := math.Mod(float64(i)*0.37, 1)
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64) + "," + strconv.FormatFloat(z, 'g', -1, 64) + "," + strconv.FormatFloat(math.Sin(3*x), 'g', -1, 64) + "\n")
	}
	data := writeFile(t, dir, "reg.csv", b.String())
	model := filepath.Join(dir, "reg.model")
	rfkit(t, "train", "-method", "rks", "-param", "lambda=1e-6", "-data", data, "-model", model).ok(t)
	if e := evalJSON(t, "-model", model, "-data", data); e.Metric != "rmse" || e.N != 200 || !(e.Value < 0.1) {
		t.Errorf("eval: %+v", e)
	}
	checkPredictions(t, rfkit(t, "predict", "-model", model, "-data", data).ok(t).stdout, 200)

	// A binary-only method on a regression target.
	rfkit(t, "train", "-method", "pbrff", "-data", data, "-model", model).fails(t, 2, `pbrff cannot do regression (the label column "target" has more than two distinct values, so -task auto chose regression); methods that can: `)
	rfkit(t, "train", "-method", "pbrff", "-task", "regression", "-data", data, "-model", model).fails(t, 2, "pbrff cannot do regression; methods that can: ")
	// -task binary insists: the learner reports the labels.
	rfkit(t, "train", "-method", "rks", "-task", "binary", "-data", data, "-model", model).fails(t, 1, "more than two classes")
}

func TestParamErrors(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 50, 1, 0, 1), true))
	model := filepath.Join(dir, "m.model")
	train := func(params ...string) result {
		args := []string{"train", "-method", "rks", "-data", data, "-model", model}
		for _, p := range params {
			args = append(args, "-param", p)
		}
		return rfkit(t, args...)
	}
	train("nope=1").fails(t, 2, `unknown parameter "nope" (valid: features, gamma, lambda, loss, task, missing, map, seed, calibrate, search, threads)`)
	train("gamma=abc").fails(t, 2, `parameter gamma: "abc" is not a number`)
	train("features=-5").fails(t, 2, "rks: Features = -5")
	train("gamma").fails(t, 2, `"gamma" is not key=value`)
	train("loss=hinge").fails(t, 2, `unknown Loss "hinge"`)
	rfkit(t, "cv", "-method", "rks", "-data", data, "-grid", "nope=1,2").fails(t, 2, `unknown parameter "nope"`)
	rfkit(t, "cv", "-method", "rks", "-data", data, "-grid", "gamma=1,,2").fails(t, 2, "empty value")
	rfkit(t, "cv", "-method", "rks", "-data", data, "-grid", "features=10,-1").fails(t, 2, "grid setting features=-1: rks: Features = -1")
	if got := files(t, dir); !slices.Equal(got, []string{"d.csv"}) {
		t.Errorf("files left: %v", got)
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 50, 1, 0, 1), true))
	m := filepath.Join(dir, "m.model")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-data", data, "-model", m}, "-method is required (one of: " + strings.Join(methodNames(), ", ") + ")"},
		{[]string{"train", "-method", "svm", "-data", data, "-model", m}, `unknown method "svm" (registered: `},
		{[]string{"train", "-method", "rks", "-data", data}, "-model is required"},
		{[]string{"train", "-method", "rks", "-model", m}, "-data is required"},
		{[]string{"train", "-method", "rks", "-data", data, "-model", m, "-format", "xls"}, `-format "xls": want csv or libsvm`},
		{[]string{"train", "-method", "rks", "-data", data, "-model", m, "-task", "classes"}, `-task "classes": want auto, binary, multiclass or regression`},
		{[]string{"train", "-method", "srff", "-data", data, "-model", m, "-task", "multiclass"}, `srff cannot do multiclass classification; methods that can: `},
		{[]string{"train", "-method", "rks", "-data", data, "-model", m, "-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"train", "-method", "rks", "-data", data, "-model", m, "-seed", "x"}, `invalid value "x" for flag -seed`},
		{[]string{"train", "-method", "rks", "-data", data, "-model", m, "extra"}, `unexpected argument "extra"`},
		{[]string{"train", "-method", "rks", "-data", filepath.Join(dir, "d.libsvm"), "-label", "y", "-model", m}, "-label applies to CSV files"},
		{[]string{"predict", "-data", data}, "-model is required"},
		{[]string{"predict", "-model", m}, "-data is required"},
		{[]string{"eval", "-model", m}, "-data is required"},
		{[]string{"cv", "-method", "rks", "-data", data}, "-grid is required"},
		{[]string{"cv", "-method", "rks", "-data", data, "-grid", "gamma=1", "-folds", "1"}, `invalid value "1" for flag -folds: want an integer from 2 to 100000`},
		{[]string{"importance"}, "-model is required"},
		{[]string{"importance", "-model", m, "-top", "-1"}, `invalid value "-1" for flag -top: want an integer from 0 to 134217728`},
		{[]string{"demo", "-ntrain", "1"}, `invalid value "1" for flag -ntrain: want an integer from 10 to 1000000`},
		{[]string{"bench", "-n", "0"}, `invalid value "0" for flag -n: want an integer from 1 to 16777216`},
		{[]string{"bench", "-count", "0"}, `invalid value "0" for flag -count: want an integer from 1 to 1000`},
	} {
		r := rfkit(t, c.args...)
		r.fails(t, 2, c.want)
		if !strings.Contains(r.stderr, "(see rfkit "+c.args[0]+" -h)") {
			t.Errorf("%v: no pointer to -h in %q", c.args, r.stderr)
		}
	}
	if got := files(t, dir); !slices.Equal(got, []string{"d.csv"}) {
		t.Errorf("files left: %v", got)
	}
}

func TestRuntimeErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.csv", csvText(moons(t, 80, 1, 0, 1), true))
	model := filepath.Join(dir, "m.model")
	rfkit(t, "train", "-method", "rks", "-data", good, "-model", model).ok(t)
	bad := writeFile(t, dir, "bad.csv", "a,b,y\n1,2,0\n3,abc,1\n")
	ragged := writeFile(t, dir, "ragged.csv", "a,b,y\n1,2,0\n3,1\n")
	empty := writeFile(t, dir, "empty.csv", "")
	junk := writeFile(t, dir, "junk.model", "this is not a model")
	three := writeFile(t, dir, "three.csv", "a,b,c,d\n1,2,3,4\n")
	one := writeFile(t, dir, "one.csv", "a\n1\n")
	features := writeFile(t, dir, "features.csv", "x0,x1\n1,2\n")
	out := filepath.Join(dir, "out.model")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-method", "rks", "-data", filepath.Join(dir, "missing.csv"), "-model", out}, "no such file"},
		{[]string{"train", "-method", "rks", "-data", bad, "-model", out}, `line 3, column "b": "abc" is not a number`},
		{[]string{"train", "-method", "rks", "-data", ragged, "-model", out}, "line 3 has 2 fields, header has 3"},
		{[]string{"train", "-method", "rks", "-data", empty, "-model", out}, "empty input"},
		{[]string{"train", "-method", "gbrff2", "-data", one, "-model", out}, "no feature columns"},
		{[]string{"predict", "-model", junk, "-data", good}, "junk.model: not an rfkit model file"},
		{[]string{"predict", "-model", filepath.Join(dir, "nope.model"), "-data", good}, "no such file"},
		{[]string{"predict", "-model", model, "-data", three}, "4 columns, but the model takes 2 inputs"},
		{[]string{"predict", "-model", model, "-data", features, "-label", "a"}, "-label a given, but the file has exactly the model's 2 input columns"},
		{[]string{"eval", "-model", model, "-data", features}, "no label column"},
		{[]string{"eval", "-model", model, "-data", empty}, "empty input"},
		{[]string{"predict", "-model", model, "-data", good, "-out", filepath.Join(dir, "no", "such", "dir.txt")}, "write "},
	} {
		rfkit(t, c.args...).fails(t, 1, c.want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed train left %s", out)
	}
}

func TestAtomicModelWrite(t *testing.T) {
	dir := t.TempDir()
	three := writeFile(t, dir, "three.csv", "a,b,y\n0,0,0\n1,0,1\n0,1,2\n1,1,0\n")
	good := writeFile(t, dir, "good.csv", csvText(moons(t, 60, 1, 0, 1), true))
	model := filepath.Join(dir, "m.model")
	// The fit fails after the data was read: nothing is written.
	rfkit(t, "train", "-method", "gbrff2", "-task", "binary", "-data", three, "-model", model).fails(t, 1, "more than two classes")
	// Cancelled (Ctrl-C): nothing is written either.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rfkitCtx(t, ctx, "train", "-method", "gbrff2", "-data", good, "-model", model).fails(t, 1, "interrupted")
	if got := files(t, dir); !slices.Equal(got, []string{"good.csv", "three.csv"}) {
		t.Errorf("files after failed trains: %v", got)
	}
	// An existing model survives a failed train.
	if err := os.WriteFile(model, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	rfkitCtx(t, ctx, "train", "-method", "gbrff2", "-data", good, "-model", model).fails(t, 1, "interrupted")
	if b, _ := os.ReadFile(model); string(b) != "old" {
		t.Errorf("model overwritten: %q", b)
	}
	// The model path is a directory: the rename fails, no temporary file stays.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, sub, "keep", "")
	rfkit(t, "train", "-method", "rks", "-data", good, "-model", sub).fails(t, 1, "write "+sub)
	if got := files(t, dir); !slices.Equal(got, []string{"good.csv", "m.model", "sub", "three.csv"}) {
		t.Errorf("files after a failed rename: %v", got)
	}
}
