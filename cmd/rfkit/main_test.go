package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
)

// result is the outcome of one in-process run of the command.
type result struct {
	code           int
	stdout, stderr string
}

// rfkit runs the command line args in-process.
func rfkit(t *testing.T, args ...string) result {
	t.Helper()
	return rfkitCtx(t, context.Background(), args...)
}

func rfkitCtx(t *testing.T, ctx context.Context, args ...string) result {
	t.Helper()
	var out, errw bytes.Buffer
	code := run(ctx, args, &out, &errw)
	return result{code, out.String(), errw.String()}
}

// ok fails the test unless r exited 0.
func (r result) ok(t *testing.T) result {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
	}
	return r
}

// fails checks that r exited with code and one stderr line containing want.
func (r result) fails(t *testing.T, code int, want string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit %d, want %d; stderr: %q", r.code, code, r.stderr)
	}
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q does not contain %q", r.stderr, want)
	}
	if n := strings.Count(r.stderr, "\n"); n != 1 || !strings.HasSuffix(r.stderr, "\n") {
		t.Errorf("stderr is %d lines, want one: %q", n, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("stderr has a stack trace: %q", r.stderr)
	}
}

// writeFile writes content to dir/name and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// moons returns n two-moons points with the labels mapped to neg and pos.
func moons(t *testing.T, n int, seed uint64, neg, pos float64) *synth.Set {
	t.Helper()
	s, err := synth.Moons(n, 0.1, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range s.Y {
		s.Y[i] = neg
		if v > 0 {
			s.Y[i] = pos
		}
	}
	return s
}

// csvText is s as CSV: x0,x1,...,y (or without the label column).
func csvText(s *synth.Set, label bool) string {
	var b strings.Builder
	for j := 0; j < s.D; j++ {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "x%d", j)
	}
	if label {
		b.WriteString(",y")
	}
	b.WriteByte('\n')
	for i := 0; i < s.N; i++ {
		for j, v := range s.Row(i) {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		if label {
			b.WriteString("," + strconv.FormatFloat(s.Y[i], 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// libsvmText is s in LIBSVM format.
func libsvmText(s *synth.Set) string {
	var b strings.Builder
	b.WriteString("# two moons\n")
	for i := 0; i < s.N; i++ {
		b.WriteString(strconv.FormatFloat(s.Y[i], 'g', -1, 64))
		for j, v := range s.Row(i) {
			if v != 0 {
				fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// lines splits output into its non-empty lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// files lists the names in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestTopLevel(t *testing.T) {
	r := rfkit(t)
	if r.code != 2 || !strings.Contains(r.stderr, "Usage: rfkit <command>") {
		t.Errorf("no args: %+v", r)
	}
	for _, args := range [][]string{{"-h"}, {"help"}, {"--help"}} {
		r := rfkit(t, args...).ok(t)
		for _, want := range []string{"Usage: rfkit <command>", "train", "bench", "gbrff2", "rks", "Exit status"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v: no %q in %q", args, want, r.stdout)
			}
		}
	}
	if r := rfkit(t, "help", "eval").ok(t); !strings.Contains(r.stdout, "Usage: rfkit eval") {
		t.Errorf("help eval: %q", r.stdout)
	}
	rfkit(t, "frobnicate").fails(t, 2, `unknown command "frobnicate"`)
}

func TestSubcommandHelp(t *testing.T) {
	for _, c := range commands {
		r := rfkit(t, c.name, "-h").ok(t)
		if !strings.HasPrefix(r.stdout, "Usage: rfkit "+c.name) || !strings.Contains(r.stdout, "Flags:") || r.stderr != "" {
			t.Errorf("%s -h: stdout %q, stderr %q", c.name, r.stdout, r.stderr)
		}
	}
	// The hidden sizing flags of demo stay out of its help.
	if r := rfkit(t, "demo", "-h"); strings.Contains(r.stdout, "-ntrain") || !strings.Contains(r.stdout, "-png FILE") {
		t.Errorf("demo -h: %q", r.stdout)
	}
}

func TestMethodHelp(t *testing.T) {
	for _, args := range [][]string{
		{"train", "-method", "gbrff2", "-h"},
		{"train", "-h", "-method", "gbrff2"},
		{"train", "-method=gbrff2", "-h"},
		{"cv", "-method", "gbrff2", "-h"},
	} {
		r := rfkit(t, args...).ok(t)
		if !strings.HasPrefix(r.stdout, "Parameters of gbrff2") {
			t.Errorf("%v: the help does not lead with the method's parameters: %.80q", args, r.stdout)
		}
		for _, want := range []string{"Parameters of gbrff2", "gamma ", "float64", "boosting rounds", "seed "} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v: no %q in %s", args, want, r.stdout)
			}
		}
	}
	r := rfkit(t, "train", "-method", "rks", "-h").ok(t)
	for _, want := range []string{"features", "100", "1e-3", "learners.Task"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("rks: no %q in %s", want, r.stdout)
		}
	}
	if r := rfkit(t, "train", "-h").ok(t); !strings.Contains(r.stdout, "Methods (rfkit train -method NAME -h") {
		t.Errorf("train -h without a method: %s", r.stdout)
	}
	if r := rfkit(t, "train", "-method", "nope", "-h").ok(t); !strings.Contains(r.stdout, `unknown method "nope"`) {
		t.Errorf("train -method nope -h: %s", r.stdout)
	}
}

func TestPanicIsOneLine(t *testing.T) {
	saved := commands
	defer func() { commands = saved }()
	commands = append([]command{{name: "boom", run: func(context.Context, *env, []string) error {
		panic("kaboom\nsecond line")
	}}}, saved...)
	rfkit(t, "boom").fails(t, 1, "rfkit boom: internal error: kaboom; second line")
}

func TestOneLine(t *testing.T) {
	if got := oneLine(" a\nb\r\n\nc "); got != "a; b; c" {
		t.Errorf("oneLine = %q", got)
	}
}
