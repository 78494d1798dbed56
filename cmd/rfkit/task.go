package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rfkit/rfkit/learners"
)

// The tasks of -task and how the command tells which methods can do them.

// Task flag values.
const (
	taskAuto       = "auto"
	taskBinary     = "binary"
	taskMulticlass = "multiclass"
	taskRegression = "regression"
)

// Class limits. -task auto reads integer labels of 3 to maxAutoClasses
// distinct values as classes (more are a regression target); -task
// multiclass takes at most maxClasses. 20 keeps integer-valued regression
// targets regressions: cpu_act's CPU percentages have 56 distinct values,
// and a count or a rating scale often has more than 20, while the usual
// multiclass sets have 3 to 10 classes (-task multiclass takes more).
const (
	maxAutoClasses = 20
	maxClasses     = 1000
)

// taskName is the -task spelling of t.
func taskName(t learners.Task) string {
	switch t {
	case learners.Binary:
		return taskBinary
	case learners.Multiclass:
		return taskMulticlass
	case learners.Regression:
		return taskRegression
	}
	return t.String()
}

// parseTask parses a -task value other than auto.
func parseTask(s string) (learners.Task, error) {
	switch s {
	case taskBinary:
		return learners.Binary, nil
	case taskMulticlass:
		return learners.Multiclass, nil
	case taskRegression:
		return learners.Regression, nil
	}
	return 0, usagef("-task %q: want auto, binary, multiclass or regression", s)
}

// setTask makes the Config cfg train for task t and reports whether it
// can. Whether m fits t is what m declared when it registered
// (Method.Tasks); the task is then set through the Config's "task"
// parameter, or, for a Config without one, left at its zero value (Binary,
// the only task such a learner declares). cfg is changed only when setTask
// returns true.
func setTask(m learners.Method, cfg any, t learners.Task) bool {
	if !slices.Contains(m.Tasks, t) {
		return false
	}
	if !hasParam(cfg, "task") {
		return t == learners.Binary
	}
	return learners.SetParam(cfg, "task", t.String()) == nil
}

// canDo reports whether method m can train for task t: one of the tasks it
// declared at registration.
func canDo(m learners.Method, t learners.Task) bool { return slices.Contains(m.Tasks, t) }

// taskMethods lists the methods that can do t.
func taskMethods(t learners.Task) []string {
	var out []string
	for _, m := range methodList() {
		if canDo(m, t) {
			out = append(out, m.Name)
		}
	}
	if len(out) == 0 {
		return []string{"none in this build"}
	}
	return out
}

// cannot is the usage error for a method that cannot do task t; why
// says how t was chosen ("" when -task named it).
func cannot(m learners.Method, t learners.Task, why string) error {
	what := map[learners.Task]string{
		learners.Binary:     "binary classification",
		learners.Multiclass: "multiclass classification",
		learners.Regression: "regression",
	}[t]
	s := fmt.Sprintf("%s cannot do %s", m.Name, what)
	if why != "" {
		s += " (" + why + ")"
	}
	s += fmt.Sprintf("; methods that can: %s", strings.Join(taskMethods(t), ", "))
	if t == learners.Multiclass && why != "" && canDo(m, learners.Regression) {
		s += "; or give -task regression to fit the labels as values"
	}
	return usagef("%s", s)
}

// autoTask is the task -task auto picks for the labels y: binary for two
// distinct values, multiclass for 3 to maxAutoClasses distinct integers,
// regression otherwise; why describes the labels, for messages.
func autoTask(y []float64, labelName string) (learners.Task, string) {
	what := "the labels"
	if labelName != "" {
		what = fmt.Sprintf("the label column %q", labelName)
	}
	k := distinct(y, maxAutoClasses+1)
	integers := !slices.ContainsFunc(y, func(v float64) bool { return v != math.Trunc(v) })
	switch {
	case k == 2:
		return learners.Binary, fmt.Sprintf("%s has two distinct values, so -task auto chose binary", what)
	case k >= 3 && k <= maxAutoClasses && integers:
		return learners.Multiclass, fmt.Sprintf("%s has %d distinct integer values, so -task auto chose multiclass", what, k)
	case k > maxAutoClasses && integers:
		return learners.Regression, fmt.Sprintf("%s has more than %d distinct values, so -task auto chose regression", what, maxAutoClasses)
	}
	return learners.Regression, fmt.Sprintf("%s has %s, so -task auto chose regression", what, valuesPhrase(k))
}

// checkClassLabels checks the labels of a -task multiclass training set:
// integers, at most maxClasses distinct ones. The error names the row.
func checkClassLabels(y []float64, labelName string) error {
	for i, v := range y {
		if v != math.Trunc(v) {
			return fmt.Errorf("data row %d: label %v is not an integer: multiclass labels are integers (class numbers); -task regression fits real values", i+1, v)
		}
	}
	if k := distinct(y, maxClasses+1); k > maxClasses {
		what := "the labels have"
		if labelName != "" {
			what = fmt.Sprintf("the label column %q has", labelName)
		}
		return fmt.Errorf("%s more than %d distinct values: too many classes for -task multiclass (a regression target? use -task regression)", what, maxClasses)
	}
	return nil
}
