package main

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

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

// defaultMaxSize is the default -max-size: inputs × random features of at
// most 2²⁵ (a 256 MiB matrix of float64 frequencies; the fit's feature
// matrices are larger still).
const defaultMaxSize = 1 << 25

func (f *fitFlags) register(fs *flagSet) {
	fs.StringVar(&f.method, "method", "", "the learner, `NAME` (rfkit -h lists them)")
	fs.StringVar(&f.task, "task", taskAuto, fmt.Sprintf("the `task`: auto, binary, multiclass or regression; auto is binary when the label column has two distinct values, multiclass when it has 3 to %d distinct integers, else regression", maxAutoClasses))
	fs.Var(&f.params, "param", "set a hyper-parameter, `name=value`; repeatable; the names are the method's Config fields in any case (-method NAME -h lists them); applied after -task and -seed")
	fs.Uint64Var(&f.seed, "seed", 0, "the random seed `N` (sets the method's seed parameter)")
	fs.Int64Var(&f.maxSize, "max-size", defaultMaxSize, "refuse to fit when inputs × the method's number of random features (features, landmarks, candidates or rounds) exceeds `N`")
}

// sizeParams are the Config fields that count random features (or
// rounds, each adding one), by the names the learners give them.
var sizeParams = []string{"features", "candidates", "landmarks", "t"}

// featureCount is the largest number of random features the Config cfg
// points to asks for: the value of a sizeParams field, or its documented
// default when zero ("20·M" candidates: 20 × the features).
func featureCount(cfg any) int64 {
	v := reflect.ValueOf(cfg)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return 0
	}
	value := func(name string) int64 {
		for _, p := range learners.Params(cfg) {
			if p.Name != name {
				continue
			}
			fv := v.Elem().FieldByNameFunc(func(s string) bool { return strings.EqualFold(s, name) })
			if fv.IsValid() && fv.CanInt() && fv.Int() != 0 {
				return fv.Int()
			}
			if n, err := strconv.ParseInt(p.Default, 10, 64); err == nil {
				return n
			}
			return -1 // a default that is not a number
		}
		return 0
	}
	var most int64
	for _, name := range sizeParams {
		n := value(name)
		if n < 0 && name == "candidates" {
			n = 20 * max(value("features"), 1)
		}
		most = max(most, n)
	}
	return most
}

// checkSize refuses a fit whose inputs × random features exceed -max-size,
// before anything of that size is allocated.
func (f *fitFlags) checkSize(cfg any, inputs int) error {
	limit := f.maxSize
	if limit <= 0 {
		limit = defaultMaxSize
	}
	n := featureCount(cfg)
	if n > 0 && int64(inputs) > limit/n {
		return fmt.Errorf("%d inputs × %d random features exceeds -max-size %d; raise -max-size if the machine has the memory (a matrix of %d float64 values is %.3g GB)",
			inputs, n, limit, int64(inputs)*n, float64(inputs)*float64(n)*8/1e9)
	}
	return nil
}

// regressionOnly reports whether m declared regression but not binary
// classification (srff): -task auto fits its two-valued labels as values.
func regressionOnly(m learners.Method) bool {
	return !m.Supports(learners.Binary) && m.Supports(learners.Regression)
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
	if f.maxSize < 0 {
		return usagef("-max-size %d: want N ≥ 0", f.maxSize)
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
