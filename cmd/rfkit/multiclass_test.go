package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// mcfake is a test learner on learners.Base that does binary and
// multiclass classification through the learners.Multiclass task and
// implements learners.ClassModel: the nearest class mean of the
// standardised inputs (over the first Dims of them; 0: all), probabilities
// a softmax of minus the squared distances. No learner of this build does
// Multiclass yet; this one lets the tests run the command's multiclass
// paths end to end (train, model file, predict, eval, cv, info). Its file
// stores the task as binary with a "classes" array, as rrf's multiclass
// models do until the model file knows multiclass.
const mcfake = "mcfake"

// testMethods are registered by the tests only: the README lists the real
// ones.
var testMethods = []string{mcfake}

type mcConfig struct {
	Task learners.Task `help:"binary or multiclass"`
	Dims int           `help:"inputs used (0: all)"`
}

func (c mcConfig) Validate() error {
	if c.Task != learners.Binary && c.Task != learners.Multiclass {
		return fmt.Errorf("mcfake: Task = %d, want binary or multiclass", int(c.Task))
	}
	if c.Dims < 0 {
		return fmt.Errorf("mcfake: Dims = %d, want ≥ 0", c.Dims)
	}
	return nil
}

type mcBody struct {
	dims    int
	classes []float64
	means   []float64 // K × dims
}

func (*mcBody) Spec() learners.Spec {
	return learners.Spec{Name: mcfake, Methods: []string{mcfake}, Version: 1}
}
func (*mcBody) NewWork() any { return nil }

// probs writes the class probabilities of the standardised row z.
func (b *mcBody) probs(dst, z []float64) {
	best := math.Inf(1)
	for k := range b.classes {
		var s float64
		for j, v := range b.means[k*b.dims : (k+1)*b.dims] {
			s += (z[j] - v) * (z[j] - v)
		}
		dst[k] = s
		best = min(best, s)
	}
	var sum float64
	for k, s := range dst {
		dst[k] = math.Exp(best - s)
		sum += dst[k]
	}
	for k := range dst {
		dst[k] /= sum
	}
}

// Score is the probability of the largest class minus one half.
func (b *mcBody) Score(z []float64, _ any) float64 {
	var p [16]float64
	b.probs(p[:len(b.classes)], z)
	return p[len(b.classes)-1] - 0.5
}

// Predict is the class of largest probability.
func (b *mcBody) Predict(z []float64, _ any) float64 {
	var p [16]float64
	b.probs(p[:len(b.classes)], z)
	k := 0
	for j := range b.classes {
		if p[j] > p[k] {
			k = j
		}
	}
	return b.classes[k]
}

func (b *mcBody) Encode(e *learners.Encoder) error {
	e.Array("classes", b.classes)
	e.Array("means", b.means)
	return e.Config(struct{ Dims int }{b.dims})
}

func (b *mcBody) Decode(d *learners.Decoder) error {
	var cfg struct{ Dims int }
	d.Config(&cfg)
	b.dims, b.classes = cfg.Dims, d.Array("classes", -1)
	if len(b.classes) < 2 || len(b.classes) > 16 || b.dims < 1 || b.dims > d.Inputs {
		return errors.New("mcfake: bad classes or dims")
	}
	b.means = d.Array("means", len(b.classes)*b.dims)
	return d.Err()
}

type mcModel struct {
	learners.Base[mcBody, *mcBody]
}

// Task is Multiclass for more than two classes (the file says binary).
func (m *mcModel) Task() learners.Task {
	if len(m.Body().classes) > 2 {
		return learners.Multiclass
	}
	return learners.Binary
}

func (m *mcModel) Classes() []float64 { return m.Body().classes }

func (m *mcModel) Probabilities(dst, x []float64) error {
	if len(dst) != len(m.Body().classes) || len(x) != m.NumInputs() {
		return fmt.Errorf("mcfake: %w", learners.ErrShape)
	}
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("mcfake: input %d: %w", k, learners.ErrNotFinite)
		}
	}
	z := make([]float64, len(x))
	m.StandardizeRow(z, x)
	m.Body().probs(dst, z)
	return nil
}

var _ learners.ClassModel = (*mcModel)(nil)

func fitMC(ctx context.Context, X featmap.Matrix, y []float64, cfg mcConfig) (*mcModel, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := learners.CheckData(X, y); err != nil {
		return nil, err
	}
	classes := slices.Clone(y)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	if len(classes) < 2 || len(classes) > 16 {
		return nil, fmt.Errorf("mcfake: %d classes, want 2..16", len(classes))
	}
	if cfg.Task == learners.Binary && len(classes) != 2 {
		return nil, fmt.Errorf("mcfake: %d classes for the binary task", len(classes))
	}
	mean, scale, xs, err := learners.Standardize(X)
	if err != nil {
		return nil, err
	}
	d := X.Cols
	b := &mcBody{dims: d, classes: classes}
	if cfg.Dims > 0 && cfg.Dims < d {
		b.dims = cfg.Dims
	}
	b.means = make([]float64, len(classes)*b.dims)
	count := make([]float64, len(classes))
	for i, v := range y {
		k, _ := slices.BinarySearch(classes, v)
		count[k]++
		for j := range b.dims {
			b.means[k*b.dims+j] += xs[i*d+j]
		}
	}
	for k := range classes {
		for j := range b.dims {
			b.means[k*b.dims+j] /= count[k]
		}
	}
	m := new(mcModel)
	lab, _ := learners.NewLabels(classes[0], classes[len(classes)-1])
	learners.Build(&m.Base, learners.Common{Task: learners.Binary, Labels: lab, Mean: mean, Scale: scale}, b)
	return m, ctx.Err()
}

func init() {
	learners.Define(mcfake, "nearest class mean, a test learner for multiclass", []learners.Task{learners.Binary, learners.Multiclass}, func() *mcConfig { return new(mcConfig) },
		fitMC, learners.Unmarshal[mcModel])
}

// blobsCSV is a CSV file of n rows a,b,(w,)y: classes 1..k centred on
// b = 3·class (a is noise), with a weight column when w is not nil.
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
	r := rfkit(t, "train", "-method", mcfake, "-data", data, "-model", model).ok(t)
	if !strings.Contains(r.stdout, "mcfake: multiclass (3 classes) on 150 rows") {
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
	rfkit(t, "train", "-method", mcfake, "-task", "regression", "-data", data, "-model", model).fails(t, 2, "mcfake cannot do regression; methods that can: ")
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
	rfkit(t, "train", "-method", mcfake, "-task", "multiclass", "-data", frac, "-model", model).fails(t, 1, "data row 61: label 1.5 is not an integer")
	rfkit(t, "train", "-method", mcfake, "-data", frac, "-model", model).fails(t, 2, "so -task auto chose regression); methods that can: ")
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
	rfkit(t, "train", "-method", mcfake, "-task", "multiclass", "-data", huge, "-model", model).fails(t, 1, `the label column "y" has more than 1000 distinct values: too many classes for -task multiclass`)
}

func TestWeights(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "w.model")
	wt := func(i int) int { return (i / 3) % 3 } // 0, 1, 2 in every class
	weights := func(i int) string { return strconv.Itoa(wt(i)) }
	data := writeFile(t, dir, "w.csv", blobsCSV(90, 3, weights))

	// Weight 2 is the row twice, weight 0 no row: the same model file.
	rfkit(t, "train", "-method", mcfake, "-data", data, "-weight", "w", "-model", model, "-quiet").ok(t)
	var dup strings.Builder
	dup.WriteString("a,b,y\n")
	for i, l := range lines(blobsCSV(90, 3, nil))[1:] {
		dup.WriteString(strings.Repeat(l+"\n", wt(i)))
	}
	dupData := writeFile(t, dir, "dup.csv", dup.String())
	dupModel := filepath.Join(dir, "dup.model")
	rfkit(t, "train", "-method", mcfake, "-data", dupData, "-model", dupModel, "-quiet").ok(t)
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
	rfkit(t, "train", "-method", mcfake, "-param", "dims=1", "-data", data, "-weight", "w", "-model", model, "-quiet").ok(t)
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
	rfkit(t, "train", "-method", mcfake, "-data", neg, "-weight", "w", "-model", model).fails(t, 1, `data row 3: weight -1 in column "w" is negative`)
	rfkit(t, "eval", "-model", model, "-data", neg, "-weight", "w").fails(t, 1, `data row 3: weight -1 in column "w" is negative`)
	nan := bad("nan.csv", func(i int) string { return map[bool]string{true: "NaN", false: "1"}[i == 4] })
	rfkit(t, "train", "-method", mcfake, "-data", nan, "-weight", "w", "-model", model).fails(t, 1, `line 6, column "w": "NaN" is not finite`)
	zero := bad("zero.csv", func(int) string { return "0" })
	rfkit(t, "cv", "-method", mcfake, "-data", zero, "-weight", "w", "-grid", "dims=1").fails(t, 1, `every weight in column "w" is 0`)
	half := bad("half.csv", func(i int) string { return "0.5" })
	rfkit(t, "train", "-method", mcfake, "-data", half, "-weight", "w", "-model", model).fails(t, 1, "mcfake: weight 0.5 of row 0 is not an integer, and the learner takes no sample weights")
	rfkit(t, "train", "-method", mcfake, "-data", data, "-weight", "y", "-model", model).fails(t, 2, `-weight y and the label are the same column (index 3, "y")`)
	rfkit(t, "train", "-method", mcfake, "-data", data, "-weight", "v", "-model", model).fails(t, 1, `-weight column "v" not found in the header`)
	svm := writeFile(t, dir, "d.libsvm", "1 1:0.5\n2 1:0.7\n")
	rfkit(t, "train", "-method", mcfake, "-data", svm, "-weight", "w", "-model", model).fails(t, 2, "-weight applies to CSV files")
	// The label's default skips the weight column.
	last := writeFile(t, dir, "last.csv", "a,b,class,wt\n"+strings.Join(lines(blobsCSV(60, 3, nil))[1:], ",1\n")+",1\n")
	if r := rfkit(t, "train", "-method", mcfake, "-data", last, "-weight", "wt", "-model", model).ok(t); !strings.Contains(r.stdout, "multiclass (3 classes) on 60 rows × 2 inputs") {
		t.Errorf("label default with -weight last: %q", r.stdout)
	}
}

func TestCVMulticlass(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "w.csv", blobsCSV(120, 3, func(i int) string { return strconv.Itoa(1 + i%2) }))
	model := filepath.Join(dir, "best.model")
	r := rfkit(t, "cv", "-method", mcfake, "-data", data, "-weight", "w", "-grid", "dims=1,0", "-folds", "3", "-json", "-model", model).ok(t)
	var res cvJSON
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v: %q", err, r.stdout)
	}
	if res.Task != "multiclass" || res.Split != "stratified" || res.Metric != "accuracy" || !res.Weighted || len(res.Settings) != 2 ||
		res.Best.Setting != "dims=0" || !(res.Best.Mean > 0.9) || !(res.Settings[0].Mean < 0.6) || len(res.Best.Scores) != 3 ||
		res.Best.Params["dims"] != "0" || res.Model != model || res.Bytes == 0 {
		t.Errorf("cv -json: %+v", res)
	}
	// The refitted model is the best setting trained on every row, as train
	// writes it.
	trained := filepath.Join(dir, "trained.model")
	rfkit(t, "train", "-method", mcfake, "-data", data, "-weight", "w", "-param", "dims=0", "-model", trained, "-quiet").ok(t)
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(trained)
	if !slices.Equal(a, b) {
		t.Error("cv -model differs from train with the best setting")
	}
	// Log loss: lower is better, reported as is.
	r = rfkit(t, "cv", "-method", mcfake, "-data", data, "-grid", "dims=1,0", "-folds", "3", "-metric", "logloss").ok(t)
	if !strings.Contains(r.stdout, "multiclass, 3-fold stratified cross-validation, logloss") || !strings.Contains(r.stdout, "best: dims=0 (logloss 0.") {
		t.Errorf("cv -metric logloss: %q", r.stdout)
	}
	rfkit(t, "cv", "-method", mcfake, "-data", data, "-grid", "dims=0", "-metric", "auc").fails(t, 2, "-metric auc does not apply to multiclass (metrics: accuracy, logloss, macro-f1)")
	rfkit(t, "cv", "-method", mcfake, "-data", data, "-grid", "dims=0", "-metric", "f2").fails(t, 2, `-metric "f2": want`)
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
