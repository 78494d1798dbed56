package learners

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
)

func TestTask(t *testing.T) {
	for _, task := range []Task{Binary, Regression, Multiclass} {
		got, err := ParseTask(task.String())
		if err != nil || got != task {
			t.Errorf("ParseTask(%q) = %v, %v", task, got, err)
		}
		b, err := json.Marshal(struct{ T Task }{task})
		if err != nil || string(b) != `{"T":"`+task.String()+`"}` {
			t.Errorf("JSON %s, %v", b, err)
		}
	}
	if _, err := ParseTask("ordinal"); err == nil || !strings.Contains(err.Error(), `unknown task "ordinal"`) {
		t.Errorf("ParseTask: %v", err)
	}
	if _, err := json.Marshal(Task(5)); err == nil || Task(5).String() != "Task(5)" || Task(5).valid() {
		t.Error("Task(5) accepted")
	}
	var v struct{ T Task }
	if err := json.Unmarshal([]byte(`{"T":"nope"}`), &v); err == nil {
		t.Error("JSON accepted an unknown task")
	}
}

// fakeModel is the smallest Model: it predicts the first input.
type fakeModel struct{}

func (fakeModel) NumInputs() int                               { return 1 }
func (fakeModel) Task() Task                                   { return Regression }
func (fakeModel) Predict(x []float64) float64                  { return x[0] }
func (fakeModel) PredictBatch([]float64, featmap.Matrix) error { return nil }
func (fakeModel) MarshalBinary() ([]byte, error) {
	f := &modelfile.File{Header: modelfile.Header{Method: "fake", Version: 1, Task: "regression", Inputs: 1}}
	return f.MarshalBinary()
}

func init() {
	register(Method{
		Name:      "fake",
		Doc:       "test double",
		Tasks:     []Task{Binary, Multiclass, Regression},
		NewConfig: func() any { return new(testConfig) },
		Fit: func(context.Context, featmap.Matrix, []float64, any, Progress) (Model, error) {
			return fakeModel{}, nil
		},
		Load: func([]byte) (Model, error) { return fakeModel{}, nil },
	})
}

func TestRegistry(t *testing.T) {
	m, err := Lookup("fake")
	if err != nil || m.Name != "fake" {
		t.Fatalf("Lookup: %v", err)
	}
	// The external tests link in every learner; the list is sorted.
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), `unknown method "nope" (registered: eerf, fake, fogd, `) {
		t.Errorf("Lookup(nope): %v", err)
	}
	ms := Methods()
	if !slices.IsSortedFunc(ms, func(a, b Method) int { return strings.Compare(a.Name, b.Name) }) ||
		!slices.ContainsFunc(ms, func(m Method) bool { return m.Name == "fake" }) || !slices.ContainsFunc(ms, func(m Method) bool { return m.Name == "rks" }) {
		t.Errorf("Methods: %v", ms)
	}
	data, _ := fakeModel{}.MarshalBinary()
	if got, err := Load(data); err != nil || got.Predict([]float64{4}) != 4 {
		t.Errorf("Load: %v", err)
	}
	other := &modelfile.File{Header: modelfile.Header{Method: "other", Version: 1, Task: "regression", Inputs: 1}}
	data, _ = other.MarshalBinary()
	if _, err := Load(data); err == nil || !strings.Contains(err.Error(), `unknown method "other"`) {
		t.Errorf("Load(other): %v", err)
	}
	if _, err := Load([]byte("junk")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Load(junk): %v", err)
	}

	mustPanic := func(name, want string, m Method) {
		t.Helper()
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), want) {
				t.Errorf("%s: panic %v, want %q", name, r, want)
			}
		}()
		register(m)
	}
	ok := Method{Name: "x", NewConfig: m.NewConfig, Fit: m.Fit, Load: m.Load}
	mustPanic("frozen", "after the registry was read", ok)

	frozen.Store(false) // test only: reopen the registry
	defer frozen.Store(true)
	mustPanic("duplicate", "duplicate method fake", Method{Name: "fake", Tasks: m.Tasks, NewConfig: m.NewConfig, Fit: m.Fit, Load: m.Load})
	mustPanic("no tasks", "no Tasks declared", Method{Name: "notasks", NewConfig: m.NewConfig, Fit: m.Fit, Load: m.Load})
	mustPanic("bad task", "unknown task", Method{Name: "badtask", Tasks: []Task{Task(9)}, NewConfig: m.NewConfig, Fit: m.Fit, Load: m.Load})
	mustPanic("empty", `bad name ""`, Method{NewConfig: m.NewConfig, Fit: m.Fit, Load: m.Load})
	mustPanic("upper", `bad name "X"`, Method{Name: "X", NewConfig: m.NewConfig, Fit: m.Fit, Load: m.Load})
	mustPanic("nil", "must be set", Method{Name: "y"})
}

func TestWithFeatureNamesNotBase(t *testing.T) {
	// A Model that is not built on Base cannot carry names: an error, not
	// a panic.
	if m, err := WithFeatureNames[Model](fakeModel{}, []string{"a"}); err == nil || m != nil {
		t.Errorf("fakeModel: %v, %v", m, err)
	}
	var nilModel *struct{ Model }
	if _, err := WithFeatureNames[Model](nilModel, []string{"a"}); err == nil {
		t.Error("nil model: no error")
	}
}
