package main

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/internal/limit"
	"github.com/rfkit/rfkit/learners"
)

// fitFlags choose a method and its hyper-parameters (train, cv).
type fitFlags struct {
	method  string
	task    string
	params  keyValues
	seed    uint64
	maxSize int64
}

func (f *fitFlags) register(fs *flagSet) {
	fs.StringVar(&f.method, "method", "", "the learner, `NAME` (rfkit -h lists them)")
	fs.StringVar(&f.task, "task", taskAuto, fmt.Sprintf("the `task`: auto, binary, multiclass or regression; auto is binary when the label column has two distinct values, multiclass when it has 3 to %d distinct integers, else regression", maxAutoClasses))
	fs.Var(&f.params, "param", "set a hyper-parameter, `name=value`; repeatable; the names are the method's Config fields in any case (-method NAME -h lists them); applied after -task and -seed")
	fs.Uint64Var(&f.seed, "seed", 0, "the random seed `N` (sets the method's seed parameter)")
	fs.int64RangeVar(&f.maxSize, "max-size", limit.DefaultMaxSize, 0, math.MaxInt64, "refuse to fit when the method states that its fit allocates more than `N` float64 values beside those that grow with the rows (its random features, landmarks, candidates or rounds × the inputs)")
}

// checkSize refuses a fit of the Config cfg on the labels y of d inputs
// whose size (learners.CheckSize, the learner's own statement) exceeds
// -max-size, before anything of that size is allocated; the fit itself
// checks it again under fitContext.
func (f *fitFlags) checkSize(cfg any, y []float64, d int) error {
	if err := learners.CheckSize(f.method, cfg, y, d, f.maxSize); err != nil {
		return fmt.Errorf("%w (-max-size); raise -max-size if the machine has the memory", err)
	}
	return nil
}

// fitContext is ctx with the -max-size bound, under which every Fit
// refuses a larger fit (learners.WithMaxSize).
func (f *fitFlags) fitContext(ctx context.Context) context.Context {
	return learners.WithMaxSize(ctx, f.maxSize)
}

// regressionOnly reports whether m declared regression but not binary
// classification (srff): -task auto fits its two-valued labels as values.
func regressionOnly(m learners.Method) bool {
	return !slices.Contains(m.Tasks, learners.Binary) && slices.Contains(m.Tasks, learners.Regression)
}

// lookup returns the method named by -method.
func (f *fitFlags) lookup() (learners.Method, error) {
	if f.method == "" {
		return learners.Method{}, usagef("-method is required (one of: %s)", strings.Join(methodNames(), ", "))
	}
	m, err := learners.Lookup(strings.ToLower(f.method))
	if err != nil {
		return learners.Method{}, &usageError{err.Error()}
	}
	return m, nil
}

// precheck reports a bad -task or -param before any data is read: a task
// the method cannot do is a usage error naming the methods that can.
func (f *fitFlags) precheck(m learners.Method) error {
	cfg := m.NewConfig()
	if err := f.taskParam(); err != nil {
		return err
	}
	if f.task != taskAuto {
		t, err := parseTask(f.task)
		if err != nil {
			return err
		}
		if !canDo(m, t) {
			return cannot(m, t, "")
		}
	}
	for _, kv := range f.params.kv {
		if err := learners.SetParam(cfg, kv[0], kv[1]); err != nil {
			return usagef("-param %s=%s: %v", kv[0], kv[1], err)
		}
	}
	return nil
}

// taskParam makes -param task=T what it says, -task T: it is taken out of
// the parameters and checked by -task's rule (a task the method cannot do
// is a usage error, never a silent fit of another task); a -param task
// that contradicts -task, or is given twice differently, is a usage error.
func (f *fitFlags) taskParam() error {
	kept := f.params.kv[:0:0]
	given := ""
	for _, kv := range f.params.kv {
		if !strings.EqualFold(kv[0], "task") {
			kept = append(kept, kv)
			continue
		}
		v := strings.ToLower(kv[1])
		switch {
		case given != "" && given != v:
			return usagef("-param task=%s contradicts -param task=%s", kv[1], given)
		case given == "" && f.task != taskAuto && !strings.EqualFold(f.task, v):
			return usagef("-param task=%s contradicts -task %s", kv[1], f.task)
		}
		given, f.task = v, v
	}
	f.params.kv = kept
	return nil
}

// config returns a new Config of m with the task, seed and parameters of
// the command line set, and the task it trains for. y are the training
// labels (for -task auto); fs tells which flags were given. A method that
// cannot do the task (named or chosen by auto) is a usage error naming
// the methods that can.
func (f *fitFlags) config(m learners.Method, fs *flagSet, y []float64, labelName string) (any, learners.Task, error) {
	cfg := m.NewConfig()
	var task learners.Task
	why := ""
	if f.task == taskAuto {
		task, why = autoTask(y, labelName)
		// A regression-only method (srff) fits two-valued labels as values,
		// as it always has; more classes are refused below, not fitted as
		// values without a word.
		if task == learners.Binary && regressionOnly(m) {
			task = learners.Regression
		}
	} else {
		var err error
		if task, err = parseTask(f.task); err != nil {
			return nil, 0, err
		}
	}
	if task == learners.Multiclass {
		if err := checkClassLabels(y, labelName); err != nil {
			return nil, 0, err
		}
	}
	if !setTask(m, cfg, task) {
		return nil, 0, cannot(m, task, why)
	}
	if fs.isSet("seed") && hasParam(cfg, "seed") {
		if err := learners.SetParam(cfg, "seed", strconv.FormatUint(f.seed, 10)); err != nil {
			return nil, 0, err
		}
	}
	for _, kv := range f.params.kv {
		if err := learners.SetParam(cfg, kv[0], kv[1]); err != nil {
			return nil, 0, usagef("-param %s=%s: %v", kv[0], kv[1], err)
		}
		// eerf and lkrf are one package told apart by its Selection: a
		// -param that names the other one contradicts -method.
		if strings.EqualFold(kv[0], "selection") && !strings.EqualFold(kv[1], m.Name) {
			return nil, 0, usagef("-param selection=%s contradicts -method %s (use -method %s)", kv[1], m.Name, kv[1])
		}
	}
	if v, ok := cfg.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, 0, &usageError{err.Error()}
		}
	}
	return cfg, configTask(cfg, y), nil
}

// valuesPhrase describes k distinct values (k ≤ 3, 3 meaning more than two).
func valuesPhrase(k int) string {
	switch k {
	case 0:
		return "no values"
	case 1:
		return "a single value"
	}
	return "more than two distinct values"
}

// hasParam reports whether the Config cfg points to has a settable field
// called name (lower case).
func hasParam(cfg any, name string) bool {
	for _, p := range learners.Params(cfg) {
		if p.Name == name {
			return true
		}
	}
	return false
}

// configTask is the task a Config trains for: its Task field (of type
// learners.Task), or Binary for a binary-only method; a Binary Config on
// labels of more than two classes (rrf with multiclass=true) trains for
// Multiclass.
func configTask(cfg any, y []float64) learners.Task {
	t := learners.Binary
	if v := reflect.ValueOf(cfg); v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		// The task the parameters set (-task, -param task=…): read back
		// from the parsed Config.
		if f := v.Elem().FieldByNameFunc(func(s string) bool { return strings.EqualFold(s, "task") }); f.IsValid() && f.Type() == reflect.TypeFor[learners.Task]() {
			t = f.Interface().(learners.Task)
		}
	}
	if t == learners.Binary && distinct(y, 3) > 2 {
		return learners.Multiclass
	}
	return t
}
