package rfbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// CVOptions configures CrossValidate, as the flags of rfkit cv do.
type CVOptions struct {
	// Method is the learner's registry name (its package must be linked in).
	Method string
	// Params fix the parameters that do not vary, "name=value" each
	// (learners.SetParam), applied in order.
	Params []string
	// Grid holds the values searched per parameter; the grid is their
	// Cartesian product (cv.Expand).
	Grid map[string][]string
	// Folds is k (0 → 5, else ≥ 2).
	Folds int
	// Seed seeds the folds, and the learner when SetSeed is true (as
	// rfkit cv -seed does when given).
	Seed    uint64
	SetSeed bool
	// Task is "auto" ("" → auto: binary when the labels have exactly two
	// values, else regression), "binary", "multiclass" or "regression".
	Task string
	// Data is the training file every worker reads (a path all workers
	// see: a shared file system or gs://…); Format and Label as in
	// TextOptions.
	Data   string
	Format Format
	Label  string
}

// CVResult is the outcome of CrossValidate: cv.GridSearch's Result in
// flat form, the settings' names and the table rfkit cv prints.
type CVResult struct {
	Settings []string  // the grid's settings, in cv.Expand's order
	Folds    int       // k
	Scores   []float64 // Scores[c·Folds + f]: setting c on fold f (accuracy, or −RMSE)
	Mean     []float64 // mean score of each setting over the folds
	Best     int       // the first setting of the highest mean
	Table    string    // the text rfkit cv prints
}

// CVScore is one work item of CrossValidate, setting C on fold F, and its
// score (accuracy, or −RMSE).
type CVScore struct {
	C, F  int
	Score float64
}

// cvPlan is what every worker derives from the options and the data.
type cvPlan struct {
	method   learners.Method
	variants []cv.Variant
	task     learners.Task
	ds       *dataset.Dataset
	parts    [][]int
}

// CrossValidate runs a k-fold cross-validated grid search of any learner
// as parallel work items, one per (setting, fold): each worker reads the
// data file, draws the same folds (stratified for binary classification,
// random for regression, from Seed), fits the setting on the other folds
// and scores the held-out one. The scores are gathered, averaged in fold
// order and ranked as cv.GridSearch does, and the best setting is
// refitted on all the data. It returns a PCollection of one CVResult, whose
// numbers have the bits of cv.GridSearch (and its Table the text of rfkit
// cv) on the same file, and one of the best model's file. The options and
// the data file are checked here, before the job runs; a failing fit fails
// the job with an error naming the setting and fold.
func CrossValidate(s beam.Scope, opt CVOptions) (result, model beam.PCollection, err error) {
	raw, err := json.Marshal(opt)
	if err != nil {
		return beam.PCollection{}, beam.PCollection{}, fmt.Errorf("rfbeam: %w", err)
	}
	plan, err := newCVPlan(context.Background(), opt)
	if err != nil {
		return beam.PCollection{}, beam.PCollection{}, err
	}
	k := len(plan.parts)
	items := make([]CVScore, 0, len(plan.variants)*k)
	for c := range plan.variants {
		for f := range k {
			items = append(items, CVScore{C: c, F: f})
		}
	}
	s = s.Scope("rfbeam.CrossValidate")
	scored := beam.ParDo(s, &cvFitFn{Opt: raw}, beam.Reshuffle(s, beam.CreateList(s, items)))
	all := beam.GroupByKey(s, beam.AddFixedKey(s, scored))
	result = beam.ParDo(s, &cvTableFn{Opt: raw}, all)
	model = beam.ParDo(s, &cvRefitFn{Opt: raw}, result)
	return result, model, nil
}

func newCVPlan(ctx context.Context, opt CVOptions) (*cvPlan, error) {
	m, err := learners.Lookup(opt.Method)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %w", err)
	}
	folds := opt.Folds
	if folds == 0 {
		folds = 5
	}
	if folds < 2 {
		return nil, fmt.Errorf("rfbeam: %d folds: want at least 2", folds)
	}
	if len(opt.Grid) == 0 {
		return nil, errors.New("rfbeam: empty grid")
	}
	ds, err := loadLabelled(ctx, opt)
	if err != nil {
		return nil, err
	}
	task := learners.Binary
	switch opt.Task {
	case "", "auto":
		if distinct(ds.Y, 3) != 2 {
			task = learners.Regression
		}
	default:
		if task, err = learners.ParseTask(opt.Task); err != nil {
			return nil, fmt.Errorf("rfbeam: task %q: want auto, binary, multiclass or regression", opt.Task)
		}
	}
	base := m.NewConfig()
	switch {
	case hasParam(base, "task"):
		if err := learners.SetParam(base, "task", task.String()); err != nil {
			return nil, fmt.Errorf("rfbeam: %w", err)
		}
	case task != learners.Binary:
		return nil, fmt.Errorf("rfbeam: %s does binary classification only, and the task is %s", m.Name, task)
	}
	if opt.SetSeed && hasParam(base, "seed") {
		if err := learners.SetParam(base, "seed", strconv.FormatUint(opt.Seed, 10)); err != nil {
			return nil, fmt.Errorf("rfbeam: %w", err)
		}
	}
	for _, kv := range opt.Params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("rfbeam: parameter %q: want name=value", kv)
		}
		if err := learners.SetParam(base, k, v); err != nil {
			return nil, fmt.Errorf("rfbeam: parameter %s: %w", kv, err)
		}
	}
	variants, err := cv.Expand(base, opt.Grid)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %w", err)
	}
	for _, v := range variants {
		if c, ok := v.Config.(interface{ Validate() error }); ok {
			if err := c.Validate(); err != nil {
				return nil, fmt.Errorf("rfbeam: grid setting %s: %w", v.Name, err)
			}
		}
	}
	if folds > ds.N {
		return nil, fmt.Errorf("rfbeam: %d folds for %d rows", folds, ds.N)
	}
	// The folds of cv.Search (rfkit cv): stratified for binary and
	// multiclass classification, random for regression.
	parts, err := cv.Folds(ds.Y, nil, task, folds, opt.Seed)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %w", err)
	}
	return &cvPlan{method: m, variants: variants, task: task, ds: ds, parts: parts}, nil
}

// loadLabelled reads the whole training file through Beam's file systems
// with the dataset readers.
func loadLabelled(ctx context.Context, opt CVOptions) (*dataset.Dataset, error) {
	fs, err := filesystem.New(ctx, opt.Data)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %s: %w", opt.Data, err)
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, opt.Data)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %s: %w", opt.Data, err)
	}
	defer r.Close()
	var ds *dataset.Dataset
	switch opt.Format {
	case "", CSV:
		ds, err = dataset.ReadCSV(r, dataset.CSVOptions{Label: opt.Label})
	case LIBSVM:
		ds, err = dataset.ReadLIBSVM(r, dataset.LIBSVMOptions{})
	default:
		err = fmt.Errorf("unknown format %q", opt.Format)
	}
	if err != nil {
		return nil, fmt.Errorf("rfbeam: %s: %w", opt.Data, err)
	}
	return ds, nil
}

func distinct(y []float64, limit int) int {
	seen := map[float64]bool{}
	for _, v := range y {
		if seen[v] = true; len(seen) >= limit {
			break
		}
	}
	return len(seen)
}

func hasParam(cfg any, name string) bool {
	for _, p := range learners.Params(cfg) {
		if p.Name == name {
			return true
		}
	}
	return false
}

// cvFitFn fits and scores one work item; the plan (data, folds,
// settings) is built once per worker.
type cvFitFn struct {
	Opt []byte

	plan *cvPlan
}

func (f *cvFitFn) Setup(ctx context.Context) error {
	var opt CVOptions
	if err := json.Unmarshal(f.Opt, &opt); err != nil {
		return fmt.Errorf("rfbeam: %w", err)
	}
	p, err := newCVPlan(ctx, opt)
	f.plan = p
	return err
}

func (f *cvFitFn) ProcessElement(ctx context.Context, it CVScore) (CVScore, error) {
	p := f.plan
	if it.C < 0 || it.C >= len(p.variants) || it.F < 0 || it.F >= len(p.parts) {
		return it, fmt.Errorf("rfbeam: work item %+v out of range", it)
	}
	train, test := dataset.TrainIndices(p.parts, it.F), p.parts[it.F]
	X := p.ds.Matrix()
	Xtr, ytr := learners.Rows(X, train), pick(p.ds.Y, train)
	Xte, yte := learners.Rows(X, test), pick(p.ds.Y, test)
	v := p.variants[it.C]
	m, err := p.method.Fit(ctx, Xtr, ytr, v.Config, nil)
	if err == nil && cv.TaskOf(m) != p.task {
		err = fmt.Errorf("%s fitted a %s model for a %s search", p.method.Name, cv.TaskOf(m), p.task)
	}
	if err == nil {
		if p.task != learners.Regression {
			it.Score, err = cv.Accuracy(m, Xte, yte)
		} else {
			var r float64
			r, err = cv.RMSE(m, Xte, yte)
			it.Score = -r
		}
	}
	if err != nil {
		return it, fmt.Errorf("rfbeam: cv: candidate %q, fold %d of %d: %w", v.Name, it.F+1, len(p.parts), err)
	}
	return it, nil
}

func pick(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

// cvTableFn gathers the scores into cv.GridSearch's Result.
type cvTableFn struct{ Opt []byte }

func (f *cvTableFn) ProcessElement(ctx context.Context, _ int, items func(*CVScore) bool) (CVResult, error) {
	var opt CVOptions
	if err := json.Unmarshal(f.Opt, &opt); err != nil {
		return CVResult{}, fmt.Errorf("rfbeam: %w", err)
	}
	p, err := newCVPlan(ctx, opt)
	if err != nil {
		return CVResult{}, err
	}
	k := len(p.parts)
	res := CVResult{Folds: k, Scores: make([]float64, len(p.variants)*k), Mean: make([]float64, len(p.variants))}
	seen := make([]bool, len(res.Scores))
	var it CVScore
	for items(&it) {
		seen[it.C*k+it.F] = true
		res.Scores[it.C*k+it.F] = it.Score
	}
	for i, ok := range seen {
		if !ok {
			return CVResult{}, fmt.Errorf("rfbeam: cv: no score for setting %d, fold %d", i/k, i%k+1)
		}
	}
	for c := range p.variants {
		for _, v := range res.Scores[c*k : (c+1)*k] {
			res.Mean[c] += v / float64(k)
		}
		if b := res.Mean[res.Best]; res.Mean[c] > b || (math.IsNaN(b) && !math.IsNaN(res.Mean[c])) {
			res.Best = c
		}
		res.Settings = append(res.Settings, p.variants[c].Name)
	}
	res.Table = FormatCVTable(p.method.Name, opt.Data, p.ds.N, p.task, res)
	return res, nil
}

// FormatCVTable is the table rfkit cv prints for a result: one line per
// setting with the mean ± sample standard deviation of the accuracy or
// RMSE over the folds, the best marked, then the best setting.
func FormatCVTable(method, path string, n int, task learners.Task, res CVResult) string {
	var w strings.Builder
	metric, sign, kind := "accuracy", 1.0, "stratified"
	if task == learners.Regression {
		metric, sign, kind = "RMSE", -1, "random"
	}
	fmt.Fprintf(&w, "%s on %s: %d rows, %s, %d-fold %s cross-validation, %s (mean ± std over folds)\n",
		method, path, n, task, res.Folds, kind, metric)
	name := func(s string) string {
		if s == "" {
			return "(defaults)"
		}
		return strings.ReplaceAll(s, ",", " ")
	}
	width := len("setting")
	for _, v := range res.Settings {
		width = max(width, len(name(v)))
	}
	fmt.Fprintf(&w, "  %-*s  %s\n", width, "setting", metric)
	for i, v := range res.Settings {
		mean, std := meanStd(res.Scores[i*res.Folds:(i+1)*res.Folds], sign)
		mark := ""
		if i == res.Best {
			mark = "  *"
		}
		fmt.Fprintf(&w, "  %-*s  %.4f ± %.4f%s\n", width, name(v), mean, std, mark)
	}
	mean, std := meanStd(res.Scores[res.Best*res.Folds:(res.Best+1)*res.Folds], sign)
	fmt.Fprintf(&w, "best: %s (%s %.4f ± %.4f)\n", name(res.Settings[res.Best]), metric, mean, std)
	return w.String()
}

// meanStd returns the mean and sample standard deviation of sign·s.
func meanStd(s []float64, sign float64) (mean, std float64) {
	for _, v := range s {
		mean += sign * v
	}
	mean /= float64(len(s))
	if len(s) < 2 {
		return mean, 0
	}
	for _, v := range s {
		std += (sign*v - mean) * (sign*v - mean)
	}
	return mean, math.Sqrt(std / float64(len(s)-1))
}

// WriteTable writes the Table of the one CVResult of result (as
// CrossValidate returns it) to path through Beam's file systems.
func WriteTable(s beam.Scope, path string, result beam.PCollection) {
	beam.ParDo0(s.Scope("rfbeam.WriteTable"), &writeTableFn{Path: path}, result)
}

type writeTableFn struct{ Path string }

func (f *writeTableFn) ProcessElement(ctx context.Context, r CVResult) error {
	return writeBytes(ctx, f.Path, []byte(r.Table))
}

// cvRefitFn fits the best setting on all the data.
type cvRefitFn struct{ Opt []byte }

func (f *cvRefitFn) ProcessElement(ctx context.Context, res CVResult) ([]byte, error) {
	var opt CVOptions
	if err := json.Unmarshal(f.Opt, &opt); err != nil {
		return nil, fmt.Errorf("rfbeam: %w", err)
	}
	p, err := newCVPlan(ctx, opt)
	if err != nil {
		return nil, err
	}
	if res.Best < 0 || res.Best >= len(p.variants) {
		return nil, fmt.Errorf("rfbeam: cv: best setting %d out of range", res.Best)
	}
	m, err := p.method.Fit(ctx, p.ds.Matrix(), p.ds.Y, p.variants[res.Best].Config, nil)
	if err != nil {
		return nil, fmt.Errorf("rfbeam: cv: refit of %s: %w", p.variants[res.Best].Name, err)
	}
	return m.MarshalBinary()
}

func init() {
	beam.RegisterType(reflect.TypeFor[CVScore]())
	beam.RegisterType(reflect.TypeFor[CVResult]())
	register.DoFn2x2[context.Context, CVScore, CVScore, error](&cvFitFn{})
	register.DoFn3x2[context.Context, int, func(*CVScore) bool, CVResult, error](&cvTableFn{})
	register.DoFn2x2[context.Context, CVResult, []byte, error](&cvRefitFn{})
	register.Iter1[CVScore]()
	register.DoFn2x1[context.Context, CVResult, error](&writeTableFn{})
}
