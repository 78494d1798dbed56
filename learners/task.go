package learners

import (
	"fmt"

	"github.com/rfkit/rfkit/internal/modelfile"
)

// Task is the kind of supervised problem. The zero value is Binary.
type Task int

const (
	// Binary is two-class classification. Labels may be any two distinct
	// finite values; Predict returns one of them.
	Binary Task = iota
	// Regression predicts a real value.
	Regression
)

// String returns "binary" or "regression".
func (t Task) String() string {
	switch t {
	case Binary:
		return modelfile.TaskBinary
	case Regression:
		return modelfile.TaskRegression
	}
	return fmt.Sprintf("Task(%d)", int(t))
}

// ParseTask parses "binary" or "regression".
func ParseTask(s string) (Task, error) {
	switch s {
	case modelfile.TaskBinary:
		return Binary, nil
	case modelfile.TaskRegression:
		return Regression, nil
	}
	return 0, fmt.Errorf("unknown task %q (want %q or %q)", s, modelfile.TaskBinary, modelfile.TaskRegression)
}

// Valid reports whether t is Binary or Regression.
func (t Task) Valid() bool { return t == Binary || t == Regression }

// MarshalText implements encoding.TextMarshaler (JSON configs spell the
// task out).
func (t Task) MarshalText() ([]byte, error) {
	if !t.Valid() {
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
