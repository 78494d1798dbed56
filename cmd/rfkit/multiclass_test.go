package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mcMethod is the learner the command's multiclass paths are run with
// end to end (train, model file, predict, eval, cv, info): fogd fits
// binary, multiclass and regression and takes no sample weights, so the
// command's integer-weight path (repeated rows) runs too. noRegression is a
// method that cannot do regression.
const (
	mcMethod     = "fogd"
	noRegression = "pbrff"
)

func blobsCSV(n, k int, w func(i int) string) string {
	var b strings.Builder
	b.WriteString("a,b,")
	if w != nil {
		b.WriteString("w,")
	}
	b.WriteString("y\n")
	for i := range n {
		c := i%k + 1
		fmt.Fprintf(&b, "%g,%g,", math.Sin(float64(7*i)), 3*float64(c)+0.6*math.Sin(float64(13*i)))
		if w != nil {
			b.WriteString(w(i) + ",")
		}
		fmt.Fprintf(&b, "%d\n", c)
	}
	return b.String()
}

func TestMulticlassCommand(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "three.csv", blobsCSV(150, 3, nil))
	model := filepath.Join(dir, "mc.model")

	// -task auto: three integer labels are classes.
	r := rfkit(t, "train", "-method", mcMethod, "-data", data, "-model", model).ok(t)
	if !strings.Contains(r.stdout, "fogd: multiclass (3 classes) on 150 rows") {
		t.Errorf("train: %q", r.stdout)
	}
	r = rfkit(t, "info", model).ok(t)
	if !strings.Contains(r.stdout, "task     multiclass\n") || !strings.Contains(r.stdout, "classes  1, 2, 3 (3)\n") {
		t.Errorf("info: %q", r.stdout)
	}
	var info struct {
		Task    string    `json:"task"`
		Classes []float64 `json:"classes"`
	}
	if err := json.Unmarshal([]byte(rfkit(t, "info", "-json", model).ok(t).stdout), &info); err != nil || info.Task != "multiclass" || len(info.Classes) != 3 {
		t.Errorf("info -json: %+v, %v", info, err)
	}

	// predict: labels, probabilities with a header, no single score.
	labels := checkPredictions(t, rfkit(t, "predict", "-model", model, "-data", data).ok(t).stdout, 150, 1, 2, 3)
	proba := lines(rfkit(t, "predict", "-model", model, "-data", data, "-output", "proba").ok(t).stdout)
	if len(proba) != 151 || proba[0] != "p_1,p_2,p_3" {
		t.Fatalf("proba: %d lines, header %q", len(proba), proba[0])
	}
	for i, l := range proba[1:] {
		var p []float64
		for _, f := range strings.Split(l, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("proba line %d: %q", i+2, l)
			}
			p = append(p, v)
		}
		k := 0
		for j := range p {
			if p[j] > p[k] {
				k = j
			}
		}
		if sum := p[0] + p[1] + p[2]; len(p) != 3 || math.Abs(sum-1) > 1e-12 || float64(k+1) != labels[i] {
			t.Fatalf("proba line %d: %v (sum %v), label %v", i+2, p, sum, labels[i])
		}
	}
	rfkit(t, "predict", "-model", model, "-data", data, "-output", "score").fails(t, 2, "multiclass model, which has no single score (use -output proba)")
	rfkit(t, "predict", "-model", model, "-data", data, "-output", "votes").fails(t, 2, `-output "votes": want label, proba or score`)

	// eval: every classification metric.
	e := evalJSON(t, "-model", model, "-data", data)
	var total float64
	for _, row := range e.Confusion {
		for _, v := range row {
			total += v
		}
	}
	if e.Task != "multiclass" || e.Metric != "accuracy" || !(e.Value > 0.9) || e.MacroF1 == nil || !(*e.MacroF1 > 0.9) ||
		e.LogLoss == nil || !(*e.LogLoss > 0 && *e.LogLoss < 0.5) || e.AUC != nil || e.RMSE != nil ||
		len(e.Confusion) != 3 || total != 150 || !slices.Equal(e.Classes, []float64{1, 2, 3}) {
		t.Errorf("eval -json: %+v", e)
	}
	out := rfkit(t, "eval", "-model", model, "-data", data).ok(t).stdout
	for _, want := range []string{"accuracy ", "(n=150)", "\nlog_loss ", "\nmacro_f1 ", "confusion (rows: true class, columns: predicted)\n", "     1   2   3\n   1  50   0   0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval: no %q in %q", want, out)
		}
	}
	if strings.Contains(out, "auc") {
		t.Errorf("eval of a multiclass model shows an AUC: %q", out)
	}

	// A method that cannot do multiclass: a usage error naming those that
	// can, whether -task said so or auto chose it.
	rfkit(t, "train", "-method", "srff", "-data", data, "-model", model).fails(t, 2,
		`srff cannot do multiclass classification (the label column "y" has 3 distinct integer values, so -task auto chose multiclass); methods that can: `)
	rfkit(t, "cv", "-method", "srff", "-task", "multiclass", "-data", data, "-grid", "features=5").fails(t, 2, "srff cannot do multiclass classification; methods that can: ")
	rfkit(t, "train", "-method", noRegression, "-task", "regression", "-data", data, "-model", model).fails(t, 2, "pbrff cannot do regression; methods that can: ")
	// rrf does it as the Multiclass task.
	if r := rfkit(t, "train", "-method", "rrf", "-data", data, "-model", model, "-param", "epochs=3").ok(t); !strings.Contains(r.stdout, "multiclass (3 classes)") {
		t.Errorf("rrf: %q", r.stdout)
	}
	// Its probabilities give a finite log loss.
	if r := rfkit(t, "eval", "-json", "-model", model, "-data", data).ok(t); !strings.Contains(r.stdout, `"task":"multiclass"`) || !regexp.MustCompile(`"log_loss":(0\.|[0-9.]+e-)`).MatchString(r.stdout) || !strings.Contains(r.stdout, `"confusion":[[`) {
		t.Errorf("rrf eval: %s", r.stdout)
	}
}

func TestTaskAutoAndLabels(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	// Non-integer labels: regression under auto, an error naming the row
	// under -task multiclass.
	frac := writeFile(t, dir, "frac.csv", blobsCSV(60, 3, nil)+"0.5,1,1.5\n")
	rfkit(t, "train", "-method", mcMethod, "-task", "multiclass", "-data", frac, "-model", model).fails(t, 1, "data row 61: label 1.5 is not an integer")
	rfkit(t, "train", "-method", noRegression, "-data", frac, "-model", model).fails(t, 2, "so -task auto chose regression); methods that can: ")
	// More than 20 integer values (as cpu_act's 56): a regression target
	// under auto; 20 are still classes.
	var b strings.Builder
	for _, k := range []int{21, 20} {
		b.Reset()
		b.WriteString("a,y\n")
		for i := range 300 {
			fmt.Fprintf(&b, "%d,%d\n", i, i%k)
		}
		many := writeFile(t, dir, "many.csv", b.String())
		want := "rks: regression on 300 rows"
		if k == 20 {
			want = "rks: multiclass (20 classes) on 300 rows"
		}
		if r := rfkit(t, "train", "-method", "rks", "-param", "features=10", "-data", many, "-model", model).ok(t); !strings.Contains(r.stdout, want) {
			t.Errorf("%d integer labels: %q, want %q", k, r.stdout, want)
		}
	}
	// -task multiclass refuses more than 1000.
	b.Reset()
	b.WriteString("a,y\n")
	for i := range 1100 {
		fmt.Fprintf(&b, "%d,%d\n", i, i)
	}
	huge := writeFile(t, dir, "huge.csv", b.String())
	rfkit(t, "train", "-method", mcMethod, "-task", "multiclass", "-data", huge, "-model", model).fails(t, 1, `the label column "y" has more than 1000 distinct values: too many classes for -task multiclass`)
}

func TestWeights(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "w.model")
	wt := func(i int) int { return (i / 3) % 3 } // 0, 1, 2 in every class
	weights := func(i int) string { return strconv.Itoa(wt(i)) }
	data := writeFile(t, dir, "w.csv", blobsCSV(90, 3, weights))

	// Weight 2 is the row twice, weight 0 no row: the same model file.
	rfkit(t, "train", "-method", mcMethod, "-data", data, "-weight", "w", "-model", model, "-quiet").ok(t)
	var dup strings.Builder
	dup.WriteString("a,b,y\n")
	for i, l := range lines(blobsCSV(90, 3, nil))[1:] {
		dup.WriteString(strings.Repeat(l+"\n", wt(i)))
	}
	dupData := writeFile(t, dir, "dup.csv", dup.String())
	dupModel := filepath.Join(dir, "dup.model")
	rfkit(t, "train", "-method", mcMethod, "-data", dupData, "-model", dupModel, "-quiet").ok(t)
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(dupModel)
	if !slices.Equal(a, b) {
		t.Error("training with weights 0, 1, 2 is not training on the rows repeated")
	}
	if names := modelNames(t, model); !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("feature names %q: the weight column is not a feature", names)
	}
	// By index too, and with a real learner (rows repeated).
	rfkit(t, "train", "-method", "rrf", "-param", "epochs=2", "-data", data, "-weight", "2", "-model", model, "-quiet").ok(t)

	// eval -weight: the weighted metrics.
	rfkit(t, "train", "-method", mcMethod, "-param", "features=20", "-data", data, "-weight", "w", "-model", model, "-quiet").ok(t)
	pred := checkPredictions(t, rfkit(t, "predict", "-model", model, "-data", writeFile(t, dir, "x.csv", blobsCSV(90, 3, nil))).ok(t).stdout, 90)
	var right, all float64
	for i, p := range pred {
		all += float64(wt(i))
		if p == float64(i%3+1) {
			right += float64(wt(i))
		}
	}
	e := evalJSON(t, "-model", model, "-data", data, "-weight", "w")
	if e.Weight == nil || float64(*e.Weight) != all || math.Abs(float64(e.Value)-right/all) > 1e-15 {
		t.Errorf("weighted eval %+v, want accuracy %v of weight %v", e, right/all, all)
	}

	// Bad weights: each named.
	bad := func(name string, w func(i int) string) string {
		return writeFile(t, dir, name, blobsCSV(30, 3, w))
	}
	neg := bad("neg.csv", func(i int) string { return map[bool]string{true: "-1", false: "1"}[i == 2] })
	rfkit(t, "train", "-method", mcMethod, "-data", neg, "-weight", "w", "-model", model).fails(t, 1, `data row 3: weight -1 in column "w" is negative`)
	rfkit(t, "eval", "-model", model, "-data", neg, "-weight", "w").fails(t, 1, `data row 3: weight -1 in column "w" is negative`)
	nan := bad("nan.csv", func(i int) string { return map[bool]string{true: "NaN", false: "1"}[i == 4] })
	rfkit(t, "train", "-method", mcMethod, "-data", nan, "-weight", "w", "-model", model).fails(t, 1, `line 6, column "w": "NaN" is not finite`)
	zero := bad("zero.csv", func(int) string { return "0" })
	rfkit(t, "cv", "-method", mcMethod, "-data", zero, "-weight", "w", "-grid", "features=20").fails(t, 1, `every weight in column "w" is 0`)
	half := bad("half.csv", func(i int) string { return "0.5" })
	rfkit(t, "train", "-method", mcMethod, "-data", half, "-weight", "w", "-model", model).fails(t, 1, "fogd: weight 0.5 of row 0 is not an integer, and the learner takes no sample weights")
	rfkit(t, "train", "-method", mcMethod, "-data", data, "-weight", "y", "-model", model).fails(t, 2, `-weight y and the label are the same column (index 3, "y")`)
	rfkit(t, "train", "-method", mcMethod, "-data", data, "-weight", "v", "-model", model).fails(t, 1, `-weight column "v" not found in the header`)
	svm := writeFile(t, dir, "d.libsvm", "1 1:0.5\n2 1:0.7\n")
	rfkit(t, "train", "-method", mcMethod, "-data", svm, "-weight", "w", "-model", model).fails(t, 2, "-weight applies to CSV files")
	// The label's default skips the weight column.
	last := writeFile(t, dir, "last.csv", "a,b,class,wt\n"+strings.Join(lines(blobsCSV(60, 3, nil))[1:], ",1\n")+",1\n")
	if r := rfkit(t, "train", "-method", mcMethod, "-data", last, "-weight", "wt", "-model", model).ok(t); !strings.Contains(r.stdout, "multiclass (3 classes) on 60 rows × 2 inputs") {
		t.Errorf("label default with -weight last: %q", r.stdout)
	}
}

func TestCVMulticlass(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "w.csv", blobsCSV(120, 3, func(i int) string { return strconv.Itoa(1 + i%2) }))
	model := filepath.Join(dir, "best.model")
	r := rfkit(t, "cv", "-method", mcMethod, "-data", data, "-weight", "w", "-grid", "gamma=1000,0.5", "-folds", "3", "-json", "-model", model).ok(t)
	var res cvJSON
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v: %q", err, r.stdout)
	}
	if res.Task != "multiclass" || res.Split != "stratified" || res.Metric != "accuracy" || !res.Weighted || len(res.Settings) != 2 ||
		res.Best.Setting != "gamma=0.5" || !(res.Best.Mean > 0.9) || !(res.Settings[0].Mean < 0.6) || len(res.Best.Scores) != 3 ||
		res.Best.Params["gamma"] != "0.5" || res.Model != model || res.Bytes == 0 {
		t.Errorf("cv -json: %+v", res)
	}
	// The refitted model is the best setting trained on every row, as train
	// writes it.
	trained := filepath.Join(dir, "trained.model")
	rfkit(t, "train", "-method", mcMethod, "-data", data, "-weight", "w", "-param", "gamma=0.5", "-model", trained, "-quiet").ok(t)
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(trained)
	if !slices.Equal(a, b) {
		t.Error("cv -model differs from train with the best setting")
	}
	// Log loss: lower is better, reported as is.
	r = rfkit(t, "cv", "-method", mcMethod, "-data", data, "-grid", "gamma=1000,0.5", "-folds", "3", "-metric", "logloss").ok(t)
	if !strings.Contains(r.stdout, "multiclass, 3-fold stratified cross-validation, logloss") || !strings.Contains(r.stdout, "best: gamma=0.5 (logloss 0.") {
		t.Errorf("cv -metric logloss: %q", r.stdout)
	}
	rfkit(t, "cv", "-method", mcMethod, "-data", data, "-grid", "features=10", "-metric", "auc").fails(t, 2, "-metric auc does not apply to multiclass (metrics: accuracy, logloss, macro-f1)")
	rfkit(t, "cv", "-method", mcMethod, "-data", data, "-grid", "features=10", "-metric", "f2").fails(t, 2, `-metric "f2": want`)
}

func TestBinaryAndRegressionOutputs(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "m.csv", csvText(moons(t, 300, 1, -1, 1), true))
	model := filepath.Join(dir, "rks.model")
	rfkit(t, "train", "-method", "rks", "-param", "gamma=4", "-data", data, "-model", model, "-quiet").ok(t)
	e := evalJSON(t, "-model", model, "-data", data)
	if e.Task != "binary" || e.AUC == nil || !(*e.AUC > 0.95 && *e.AUC <= 1) || e.LogLoss == nil || !(*e.LogLoss > 0) || len(e.Confusion) != 2 || e.MacroF1 == nil {
		t.Errorf("binary eval: %+v", e)
	}
	proba := lines(rfkit(t, "predict", "-model", model, "-data", data, "-output", "proba").ok(t).stdout)
	labels := checkPredictions(t, rfkit(t, "predict", "-model", model, "-data", data).ok(t).stdout, 300, -1, 1)
	scores := checkPredictions(t, rfkit(t, "predict", "-model", model, "-data", data, "-output", "score").ok(t).stdout, 300)
	if len(proba) != 301 || proba[0] != "p_-1,p_1" {
		t.Fatalf("binary proba header %q", proba[0])
	}
	for i, s := range scores {
		p := strings.Split(proba[i+1], ",")
		p1, _ := strconv.ParseFloat(p[1], 64)
		if (s >= 0) != (labels[i] == 1) || (p1 >= 0.5) != (labels[i] == 1) {
			t.Fatalf("row %d: score %v, p %v, label %v", i+1, s, p1, labels[i])
		}
	}
	// A regression: RMSE, MAE, R²; no probabilities.
	reg := filepath.Join(dir, "reg.model")
	rfkit(t, "train", "-method", "rks", "-task", "regression", "-param", "gamma=4", "-data", data, "-model", reg, "-quiet").ok(t)
	e = evalJSON(t, "-model", reg, "-data", data)
	if e.Task != "regression" || e.Metric != "rmse" || e.RMSE == nil || e.MAE == nil || e.R2 == nil || !(*e.R2 > 0.5) || e.Accuracy != nil || e.Confusion != nil {
		t.Errorf("regression eval: %+v", e)
	}
	rfkit(t, "predict", "-model", reg, "-data", data, "-output", "proba").fails(t, 2, "is a regression model; it has no class probabilities")
	values := checkPredictions(t, rfkit(t, "predict", "-model", reg, "-data", data).ok(t).stdout, 300)
	if s := checkPredictions(t, rfkit(t, "predict", "-model", reg, "-data", data, "-output", "score").ok(t).stdout, 300); !slices.Equal(s, values) {
		t.Error("a regression's score is not its value")
	}
	out := rfkit(t, "eval", "-model", reg, "-data", data).ok(t).stdout
	if !strings.HasPrefix(out, "rmse ") || !strings.Contains(out, "\nmae ") || !strings.Contains(out, "\nr2 ") {
		t.Errorf("regression eval: %q", out)
	}
}

// -resume of an rrf multiclass model: the task is multiclass (or binary,
// rrf's own way to say it), not regression.
func TestResumeMulticlass(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "three.csv", blobsCSV(90, 3, nil))
	old := filepath.Join(dir, "old.model")
	out := filepath.Join(dir, "new.model")
	rfkit(t, "train", "-method", "rrf", "-param", "epochs=1", "-data", data, "-model", old, "-quiet").ok(t)
	for _, task := range []string{"multiclass", "auto"} {
		rfkit(t, "train", "-method", "rrf", "-task", task, "-data", data, "-resume", old, "-model", out, "-quiet").ok(t)
	}
	rfkit(t, "train", "-method", "rrf", "-task", "binary", "-data", data, "-resume", old, "-model", out).fails(t, 2, "a multiclass model, but -task is binary")
	rfkit(t, "train", "-method", "rrf", "-task", "regression", "-data", data, "-resume", old, "-model", out).fails(t, 2, "a multiclass model, but -task is regression")
	weighted := writeFile(t, dir, "w.csv", blobsCSV(90, 3, func(int) string { return "1" }))
	rfkit(t, "train", "-method", "rrf", "-weight", "w", "-data", weighted, "-resume", old, "-model", out).fails(t, 2, "-resume continues an online learner row by row; it takes no -weight")
	if r := rfkit(t, "info", out).ok(t); !strings.Contains(r.stdout, "task     multiclass") {
		t.Errorf("resumed: %q", r.stdout)
	}
}
