package main

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// train -resume: continue an online learner (rrf, fogd, nogd) from a saved
// model. The library does the work; this file turns the old model into the
// Config to fit with, with no per-method code: a learner can resume when
// its Config has a field Resume of its model's type (Fit then continues
// from that model) and its model a method Config() returning that Config.

// registerResume adds -resume to train's flags.
func registerResume(fs *flagSet) *string {
	return fs.String("resume", "",
		"continue training the model `FILE` (rrf, fogd, nogd) on -data: from its state, standardisation and configuration, "+
			"with -seed and -param applied on top (e.g. -param epochs=1 -param shuffle=false to learn a stream once, in file order)")
}

// resumeConfig returns the Config that continues the model in path on
// rows of d inputs: the model's own configuration with -seed and the
// -param settings applied, and the model as its Resume. The model must
// have been written by method m; -task, if given, must be its task. It
// also returns the model's feature names (nil if it has none), which the
// continued model keeps.
func resumeConfig(m learners.Method, f *fitFlags, fs *flagSet, path string, d int) (any, []string, error) {
	lm, err := loadModel(path)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := resumeConfigOf(m, f, fs, path, d, lm)
	return cfg, lm.file.Header.Names, err
}

func resumeConfigOf(m learners.Method, f *fitFlags, fs *flagSet, path string, d int, lm *loadedModel) (any, error) {
	old, method := lm.Model, lm.file.Header.Method
	if method != m.Name {
		return nil, usagef("-resume %s: a %s model, but -method is %s", path, method, m.Name)
	}
	cfg := resumable(m, old)
	if cfg == nil {
		return nil, usagef("-resume: %s cannot continue training from a model (methods that can: %s)", m.Name, strings.Join(resumableMethods(), ", "))
	}
	// A multiclass model is one for -task multiclass, and for -task binary
	// too when it is rrf's (a binary Config with multiclass=true).
	if t := cv.TaskOf(old); f.task != taskAuto && f.task != taskName(t) && (f.task != taskBinary || old.Task() != learners.Binary) {
		return nil, usagef("-resume %s: a %s model, but -task is %s", path, taskName(t), f.task)
	}
	if d != old.NumInputs() {
		return nil, usagef("-resume %s: the model takes %d inputs, the data has %d", path, old.NumInputs(), d)
	}
	if fs.isSet("seed") {
		if err := learners.SetParam(cfg, "seed", strconv.FormatUint(f.seed, 10)); err != nil {
			return nil, err
		}
	}
	for _, kv := range f.params.kv {
		before := fieldValue(cfg, kv[0])
		if err := learners.SetParam(cfg, kv[0], kv[1]); err != nil {
			return nil, usagef("-param %s=%s: %v", kv[0], kv[1], err)
		}
		if ignoredWhenResuming(cfg, kv[0]) && !reflect.DeepEqual(before, fieldValue(cfg, kv[0])) {
			return nil, usagef("-param %s=%s: the model keeps its own %s when continued (the parameter is ignored when resuming); drop the -param, or train a new model without -resume", kv[0], kv[1], strings.ToLower(kv[0]))
		}
	}
	if v, ok := cfg.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, &usageError{err.Error()}
		}
	}
	return cfg, nil
}

// resumeIgnored is how a learner's parameter documents that Fit ignores it
// when it continues a model (Standardize: the model keeps its own).
const resumeIgnored = "ignored when resuming"

// ignoredWhenResuming reports whether the parameter name of the Config
// cfg is one its learner ignores when resuming, so that -param cannot
// store a setting (other than the model's own) the continued model does
// not follow.
func ignoredWhenResuming(cfg any, name string) bool {
	for _, p := range learners.Params(cfg) {
		if strings.EqualFold(p.Name, name) {
			return strings.Contains(p.Doc, resumeIgnored)
		}
	}
	return false
}

// fieldValue is the value of the field name (any case) of the Config cfg
// points to, nil when it has none.
func fieldValue(cfg any, name string) any {
	v := reflect.ValueOf(cfg)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByNameFunc(func(s string) bool { return strings.EqualFold(s, name) })
	if !f.IsValid() || !f.CanInterface() {
		return nil
	}
	return f.Interface()
}

// resumable returns a new Config of m (a pointer) holding old's
// configuration and old as its Resume, or nil if m cannot resume from old.
func resumable(m learners.Method, old learners.Model) any {
	cfg := reflect.ValueOf(m.NewConfig())
	if cfg.Kind() != reflect.Pointer || cfg.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := cfg.Elem().FieldByName("Resume")
	get := reflect.ValueOf(old).MethodByName("Config")
	if !f.IsValid() || !f.CanSet() || f.Type() != reflect.TypeOf(old) ||
		!get.IsValid() || get.Type().NumIn() != 0 || get.Type().NumOut() != 1 || get.Type().Out(0) != cfg.Elem().Type() {
		return nil
	}
	cfg.Elem().Set(get.Call(nil)[0])
	cfg.Elem().FieldByName("Resume").Set(reflect.ValueOf(old))
	return cfg.Interface()
}

// resumableMethods names the methods whose Config has a Resume field of a
// model type.
func resumableMethods() []string {
	var out []string
	for _, m := range learners.Methods() {
		cfg := reflect.TypeOf(m.NewConfig())
		if cfg.Kind() != reflect.Pointer || cfg.Elem().Kind() != reflect.Struct {
			continue
		}
		if f, ok := cfg.Elem().FieldByName("Resume"); ok && f.Type.Implements(reflect.TypeFor[learners.Model]()) {
			out = append(out, m.Name)
		}
	}
	return out
}
