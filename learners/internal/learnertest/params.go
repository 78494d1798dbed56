package learnertest

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

// paramErrors checks the Config ranges: every int parameter refuses −1,
// every float64 one NaN, +Inf and −1 (unless Case.Negative lists it), and
// Task (where the Config has one) refuses a value out of its range, each
// with an error that starts with the prefix and names the field as
// "Field = value"; every learners.Toggle field refuses Toggle(7) with an
// error that names it; then every entry of Case.BadParams. Fit must return no model.
func (s *suite) paramErrors(t *testing.T) {
	task := s.c.tasks()[0]
	X, y := data(task, 40, 1)
	try := func(name, want string, cfg any) {
		t.Helper()
		m, err := s.meth.Fit(context.Background(), X, y, cfg, nil)
		if err == nil || m != nil {
			t.Errorf("%s: got %v, %v; want error %q", name, m, err, want)
		} else if !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), s.c.prefix()) {
			t.Errorf("%s: got %q, want prefix %q and %q", name, err, s.c.prefix(), want)
		}
	}
	checked := 0
	for _, p := range learners.Params(s.meth.NewConfig()) {
		var values []string
		switch p.Type {
		case "int":
			values = []string{"-1"}
		case "float64":
			values = []string{"NaN", "+Inf"}
			if !slices.Contains(s.c.Negative, p.Name) {
				values = append(values, "-1")
			}
		}
		field := goName(t, s.meth.NewConfig(), p.Name)
		for _, v := range values {
			try(p.Name+"="+v, field+" = "+v, s.config(t, task, p.Name+"="+v))
			checked++
		}
	}
	if checked == 0 {
		t.Error("no numeric parameter checked")
	}
	cfg := s.config(t, task)
	if f := reflect.ValueOf(cfg).Elem().FieldByName("Task"); f.IsValid() {
		f.Set(reflect.ValueOf(learners.Task(7)))
		try("task=7", "Task = Task(7)", cfg)
	}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(cfg).Elem()) {
		if f.Type == reflect.TypeFor[learners.Toggle]() {
			cfg := s.config(t, task)
			reflect.ValueOf(cfg).Elem().FieldByIndex(f.Index).Set(reflect.ValueOf(learners.Toggle(7)))
			try(strings.ToLower(f.Name)+"=7", f.Name, cfg)
		}
	}
	for set, want := range s.c.BadParams {
		try(set, want, s.config(t, task, strings.Fields(set)...))
	}
}

// goName is the Go name of the Config field whose lower-case name is key.
func goName(t *testing.T, cfg any, key string) string {
	for _, f := range reflect.VisibleFields(reflect.TypeOf(cfg).Elem()) {
		if strings.ToLower(f.Name) == key {
			return f.Name
		}
	}
	t.Fatalf("no Config field %q", key)
	return ""
}

// Linear are the settings the linear random-feature learners (rks, prff,
// rfselect) refuse beyond the generic range checks, for Case.BadParams.
var Linear = map[string]string{
	"features=65537":                "Features = 65537, want 1..65536",
	"loss=hinge":                    `unknown Loss "hinge"`,
	"loss=logistic task=regression": "logistic needs the binary task",
}

// With returns the union of the maps (later ones win).
func With(m ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, x := range m {
		maps.Copy(out, x)
	}
	return out
}
