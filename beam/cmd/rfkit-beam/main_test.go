package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfkit/rfkit/learners"
)

func TestMain(m *testing.M) { ptest.Main(m) }

func set(t *testing.T, kv ...string) {
	t.Helper()
	for i := 0; i < len(kv); i += 2 {
		if err := flag.Set(kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTrainAndScore: train-rks then score on Prism through the command:
// the prediction files hold "ROW,PREDICTION" for every data row with the
// bits of Model.Predict, formatted as rfkit predict prints them, and the
// bad row is in PREFIX-bad.
func TestTrainAndScore(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 400 {
		a, c := math.Sin(float64(i)), math.Cos(float64(3*i))
		y := 0
		if a*c > 0 {
			y = 1
		}
		b.WriteString(strconv.FormatFloat(a, 'g', -1, 64) + "," + strconv.FormatFloat(c, 'g', -1, 64) + "," + strconv.Itoa(y) + "\n")
	}
	data := filepath.Join(dir, "d.csv")
	os.WriteFile(data, []byte(b.String()+"1,x,0\n"), 0o644)
	model := filepath.Join(dir, "m.model")
	set(t, "input", data, "model", model, "param", "features=30", "shards", "3", "seed", "4")
	if err := run(context.Background(), "train-rks", &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := learners.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "pred")
	set(t, "output", out, "shards", "2")
	if err := run(context.Background(), "score", &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, f := range []string{out + "-00000-of-00002", out + "-00001-of-00002"} {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Fields(string(raw)) {
			row, v, _ := strings.Cut(l, ",")
			lines[row] = v
		}
	}
	if len(lines) != 400 {
		t.Fatalf("%d predictions, want 400", len(lines))
	}
	for i, l := range strings.Split(b.String(), "\n")[1:401] {
		f := strings.Split(l, ",")
		x0, _ := strconv.ParseFloat(f[0], 64)
		x1, _ := strconv.ParseFloat(f[1], 64)
		if want := strconv.FormatFloat(m.Predict([]float64{x0, x1}), 'g', -1, 64); lines[strconv.Itoa(i)] != want {
			t.Fatalf("row %d: %q, want %q", i, lines[strconv.Itoa(i)], want)
		}
	}
	bad, err := os.ReadFile(out + "-bad")
	if err != nil || !strings.Contains(string(bad), `data row 401: column "b": "x" is not a number`) {
		t.Errorf("dead letters %q (%v)", bad, err)
	}
	if err := run(context.Background(), "fly", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), `unknown command "fly"`) {
		t.Errorf("unknown command: %v", err)
	}
}

// TestTrainOnline: train-online writes an rrf model mixed from 2 shards
// over 2 epochs that fits its data, the unreadable row goes to MODEL-bad,
// and a method other than rrf or fogd is a usage error.
func TestTrainOnline(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 400 {
		a, c := math.Sin(float64(i)), math.Cos(float64(3*i))
		y := -1
		if a+c > 0.2 {
			y = 1
		}
		b.WriteString(strconv.FormatFloat(a, 'g', -1, 64) + "," + strconv.FormatFloat(c, 'g', -1, 64) + "," + strconv.Itoa(y) + "\n")
	}
	data := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(data, []byte(b.String()+"1,x,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.model")
	set(t, "input", data, "model", model, "method", "rrf", "param", "features=16", "shards", "2", "epochs", "2", "seed", "4")
	if err := run(context.Background(), "train-online", &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := learners.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for _, l := range strings.Split(b.String(), "\n")[1:401] {
		f := strings.Split(l, ",")
		x0, _ := strconv.ParseFloat(f[0], 64)
		x1, _ := strconv.ParseFloat(f[1], 64)
		y, _ := strconv.ParseFloat(f[2], 64)
		if m.Predict([]float64{x0, x1}) == y {
			ok++
		}
	}
	if ok < 360 {
		t.Errorf("the mixed model fits %d of 400 rows, want ≥ 360", ok)
	}
	bad, err := os.ReadFile(model + "-bad")
	if err != nil || !strings.Contains(string(bad), `data row 401: column "b": "x" is not a number`) {
		t.Errorf("dead letters %q (%v)", bad, err)
	}
	set(t, "method", "rks")
	if err := run(context.Background(), "train-online", &bytes.Buffer{}); !errors.Is(err, errUsage) {
		t.Errorf("--method rks: %v, want a usage error", err)
	}
}

// TestHostilePaths: a model file that is /dev/zero or not a model is a
// one-line error after a few bytes (the whole file was read first, 4.4 GB
// of /dev/zero); --model naming the input file is a usage error before the
// job runs, and the input is kept; a missing --input is a one-line error
// naming it, not a failed DoFn.
func TestHostilePaths(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(data, []byte("a,b,y\n1,2,1\n3,4,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notModel := filepath.Join(dir, "x.model")
	os.WriteFile(notModel, []byte("RFKITMDL\x01\x00\xff\xff\xff\xff"), 0o644)
	for _, m := range []string{"/dev/zero", notModel, data} {
		set(t, "input", data, "model", m, "output", filepath.Join(dir, "p"))
		err := run(context.Background(), "score", &bytes.Buffer{})
		if !errors.Is(err, learners.ErrCorrupt) || strings.Contains(err.Error(), "\n") {
			t.Errorf("score --model %s: %v, want a one-line error wrapping ErrCorrupt", m, err)
		}
	}
	for _, cmd := range []string{"train-rks", "train-online", "cv"} {
		set(t, "input", data, "model", data, "method", "rrf", "grid", "features=5")
		err := run(context.Background(), cmd, &bytes.Buffer{})
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "would destroy the input") {
			t.Errorf("%s --model = --input: %v, want a usage error", cmd, err)
		}
	}
	if b, _ := os.ReadFile(data); string(b) != "a,b,y\n1,2,1\n3,4,0\n" {
		t.Errorf("the input was changed: %q", b)
	}
	set(t, "input", filepath.Join(dir, "missing.csv"), "model", notModel)
	if err := run(context.Background(), "score", &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "--input "+filepath.Join(dir, "missing.csv")) || strings.Contains(err.Error(), "DoFn") {
		t.Errorf("missing input: %v", err)
	}
}

// resetFlags sets every flag but the testing package's back to its
// default.
func resetFlags() {
	flag.VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "test.") {
			f.Value.Set(f.DefValue)
		}
	})
	params, grid = nil, nil
}

// TestEveryFlagHostile sweeps every flag of every command (Beam's too)
// with hostile values (huge, negative, NaN, empty, not a number) through
// exitCode, on an --input that does not exist (so that no job starts):
// exit 0, 1 or 2 with one line on stderr and no stack trace; a value out
// of the range of a numeric flag of rfkit-beam, or not a number, is a
// usage error (exit 2) in parse, and so is an enumerated flag's unknown
// value. (--shards 0 and 99999999999 were taken, --folds 99999999999 too,
// and a parse error printed the usage and every Beam flag after it.)
func TestEveryFlagHostile(t *testing.T) {
	defer resetFlags()
	dir := t.TempDir()
	t.Chdir(dir) // outputs named by hostile values land here
	missing := filepath.Join(dir, "missing.csv")
	base := map[string][]string{
		"score":        {"--input", missing, "--model", "m.model", "--output", "p"},
		"train-rks":    {"--input", missing, "--model", "m.model"},
		"train-online": {"--input", missing, "--model", "m.model", "--method", "rrf"},
		"cv":           {"--input", missing, "--method", "rrf", "--grid", "features=5"},
	}
	hostile := []string{"99999999999999999999", "99999999999", "-99999999999", "1e300", "-1", "NaN", "Inf", "", "x", "0"}
	numeric := map[string]bool{"shards": true, "epochs": true, "inputs": true, "folds": true, "seed": true}
	var names []string
	flag.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok && !strings.HasPrefix(f.Name, "test.") {
			names = append(names, f.Name)
		}
	})
	for _, name := range ownFlags {
		if flag.Lookup(name) == nil {
			t.Errorf("ownFlags names %q, which is not a flag", name)
		}
	}
	exec := func(args ...string) (int, string) {
		resetFlags()
		var stdout, stderr bytes.Buffer
		code := exitCode(args, &stdout, &stderr, func() {})
		return code, stderr.String()
	}
	for cmd, args := range base {
		if code, stderr := exec(append([]string{cmd}, args...)...); code != 1 || !strings.Contains(stderr, "--input "+missing) {
			t.Errorf("%s base line: exit %d, %q", cmd, code, stderr)
		}
		for _, name := range names {
			for _, v := range hostile {
				code, stderr := exec(append(append([]string{cmd}, args...), "--"+name, v)...)
				what := cmd + " --" + name + " " + strconv.Quote(v)
				if code < 0 || code > 2 || (code != 0 && strings.Count(stderr, "\n") != 1) {
					t.Errorf("%s: exit %d, stderr %.300q", what, code, stderr)
				}
				for _, s := range []string{"goroutine ", "panic", "fatal error"} {
					if strings.Contains(stderr, s) {
						t.Errorf("%s: stderr has %q: %.300q", what, s, stderr)
					}
				}
				takes := v == "0" && name != "shards" && name != "folds" || v == "99999999999" && name == "seed"
				if numeric[name] && !takes && code != 2 {
					t.Errorf("%s: exit %d, want 2 (a number out of range is a usage error): %.300q", what, code, stderr)
				}
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"score", "--output-kind", "logit"}, `--output-kind "logit": want predict, score or probability`},
		{[]string{"train-rks", "--format", "xls"}, `--format "xls": want csv or libsvm`},
		{[]string{"train-rks", "--task", "multiclass"}, `--task "multiclass": want auto, binary or regression`},
		{[]string{"cv", "--task", "classes", "--method", "rrf"}, `--task "classes"`},
		{[]string{"cv", "--method", "nope"}, `--method "nope"`},
		{[]string{"train-rks", "--shards", "0"}, `invalid value "0" for flag -shards: want an integer from 1 to 65536 (see rfkit-beam -h)`},
	} {
		code, stderr := exec(append(c.args, "--input", missing)...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, %q, want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if code, stderr := exec("-h"); code != 0 || !strings.Contains(stderr, "usage:") {
		t.Errorf("-h: exit %d, %.200q", code, stderr)
	}
}
