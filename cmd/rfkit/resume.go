package main

import (
	"strconv"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/rrf"
)

// train -resume: continue an online learner (rrf, fogd) from a saved
// model. The library does the work (Config.Resume); this file turns the
// old model into the Config to fit with.

// registerResume adds -resume to train's flags.
func registerResume(fs *flagSet) *string {
	return fs.String("resume", "",
		"continue training the model `FILE` (rrf, fogd) on -data: from its state, standardisation and configuration, "+
			"with -seed and -param applied on top (e.g. -param epochs=1 -param shuffle=false to learn a stream once, in file order)")
}

// resumeConfig returns the Config that continues the model in path on
// rows of d inputs: the model's own configuration with -seed and the
// -param settings applied, and the model as its Resume. The model must
// have been written by method m; -task, if given, must be its task.
func resumeConfig(m learners.Method, f *fitFlags, fs *flagSet, path string, d int) (any, error) {
	old, method, err := loadModel(path)
	if err != nil {
		return nil, err
	}
	if method != m.Name {
		return nil, usagef("-resume %s: a %s model, but -method is %s", path, method, m.Name)
	}
	var cfg any
	switch o := old.(type) {
	case *rrf.Model:
		c := o.Config()
		c.Resume = o
		cfg = &c
	case *fogd.Model:
		c := o.Config()
		c.Resume = o
		cfg = &c
	default:
		return nil, usagef("-resume: %s cannot continue training from a model (methods that can: fogd, rrf)", m.Name)
	}
	if f.task != taskAuto && f.task != old.Task().String() {
		return nil, usagef("-resume %s: a %s model, but -task is %s", path, old.Task(), f.task)
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
		if err := learners.SetParam(cfg, kv[0], kv[1]); err != nil {
			return nil, usagef("-param %s=%s: %v", kv[0], kv[1], err)
		}
	}
	if err := cfg.(interface{ Validate() error }).Validate(); err != nil {
		return nil, &usageError{err.Error()}
	}
	return cfg, nil
}
