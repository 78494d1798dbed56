package learners

import (
	"reflect"
	"strings"
	"testing"
)

type mode string

type testConfig struct {
	Rounds   int     `help:"number of rounds" default:"100"`
	Small    int8    `help:"a small int"`
	Seed     uint64  `help:"seed"`
	Rate     float64 `help:"learning rate"`
	Verbose  bool
	Name     string
	Mode     mode `help:"a or b"`
	Task     Task
	Progress Progress // not settable
	hidden   int      //lint:ignore U1000 present to test that unexported fields are skipped
}

func TestSetParam(t *testing.T) {
	var c testConfig
	for _, kv := range [][2]string{
		{"rounds", "12"}, {"SMALL", "-7"}, {"seed", "18446744073709551615"}, {"Rate", "2.5e-3"},
		{"verbose", "true"}, {"name", "x y"}, {"mode", "b"}, {"task", "regression"},
	} {
		if err := SetParam(&c, kv[0], kv[1]); err != nil {
			t.Fatalf("%s=%s: %v", kv[0], kv[1], err)
		}
	}
	want := testConfig{Rounds: 12, Small: -7, Seed: 1<<64 - 1, Rate: 2.5e-3, Verbose: true, Name: "x y", Mode: "b", Task: Regression}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v", c)
	}
	for _, e := range []struct{ k, v, want string }{
		{"nope", "1", `unknown parameter "nope" (valid: rounds, small, seed, rate, verbose, name, mode, task)`},
		{"progress", "1", "unknown parameter"},
		{"hidden", "1", "unknown parameter"},
		{"rounds", "1.5", `parameter rounds: "1.5" is not a 64-bit integer`},
		{"small", "300", `"300" is not a 8-bit integer`},
		{"seed", "-1", "not a 64-bit unsigned integer"},
		{"rate", "fast", `parameter rate: "fast" is not a number`},
		{"verbose", "maybe", "not a boolean"},
		{"task", "ordinal", `parameter task: unknown task "ordinal"`},
	} {
		if err := SetParam(&c, e.k, e.v); err == nil || !strings.Contains(err.Error(), e.want) {
			t.Errorf("%s=%s: %v, want %q", e.k, e.v, err, e.want)
		}
	}
	if err := SetParam(c, "rounds", "1"); err == nil || !strings.Contains(err.Error(), "non-nil pointer to a struct") {
		t.Errorf("non-pointer: %v", err)
	}
	if err := SetParam((*testConfig)(nil), "rounds", "1"); err == nil {
		t.Error("nil pointer accepted")
	}
}

func TestParams(t *testing.T) {
	c := testConfig{Rate: 0.5}
	got := Params(&c)
	want := []ParamInfo{
		{"rounds", "int", "100", "number of rounds"},
		{"small", "int8", "0", "a small int"},
		{"seed", "uint64", "0", "seed"},
		{"rate", "float64", "0.5", "learning rate"},
		{"verbose", "bool", "false", ""},
		{"name", "string", "", ""},
		{"mode", "learners.mode", "", "a or b"},
		{"task", "learners.Task", "binary", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if Params(42) != nil {
		t.Error("Params of a non-struct")
	}
}
