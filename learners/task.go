package learners

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/modelfile"
)

// Task is the kind of supervised problem. The zero value is Binary;
// Multiclass (multiclass_api.go) is the third.
type Task int

const (
	// Binary is two-class classification. Labels may be any two distinct
	// finite values; Predict returns one of them.
	Binary Task = iota
	// Regression predicts a real value.
	Regression
)

// String returns "binary", "regression" or "multiclass".
func (t Task) String() string {
	switch t {
	case Binary:
		return modelfile.TaskBinary
	case Regression:
		return modelfile.TaskRegression
	case Multiclass:
		return modelfile.TaskMulticlass
	}
	return fmt.Sprintf("Task(%d)", int(t))
}

// ParseTask parses "binary", "regression" or "multiclass".
func ParseTask(s string) (Task, error) {
	switch s {
	case modelfile.TaskBinary:
		return Binary, nil
	case modelfile.TaskRegression:
		return Regression, nil
	case modelfile.TaskMulticlass:
		return Multiclass, nil
	}
	return 0, fmt.Errorf("unknown task %q (want %q, %q or %q)", s, modelfile.TaskBinary, modelfile.TaskMulticlass, modelfile.TaskRegression)
}

// valid reports whether t is Binary, Regression or Multiclass. (A
// learner's Validate checks which of them it can fit.)
func (t Task) valid() bool { return t == Binary || t == Regression || t == Multiclass }

// MarshalText implements encoding.TextMarshaler (JSON configs spell the
// task out).
func (t Task) MarshalText() ([]byte, error) {
	if !t.valid() {
		return nil, fmt.Errorf("invalid task %d", int(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *Task) UnmarshalText(b []byte) error {
	v, err := ParseTask(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
