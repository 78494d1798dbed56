package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"time"

	"github.com/rfkit/rfkit/learners"

	"github.com/rfkit/rfkit/internal/asm"
)

// The README must stay true: these tests run every command in its sh code
// blocks (in-process, with smaller sizes where a command takes seconds),
// check its make targets and methods table, and compare its Go example with
// the embedding example in learners/gbrff.

const (
	readmePath   = "../../README.md"
	makefilePath = "../../Makefile"
	goModPath    = "../../go.mod"
)

// codeBlock is a fenced block of README.md.
type codeBlock struct {
	lang  string
	lines []string
	after string // the line before the opening fence
}

func readmeBlocks(t *testing.T) []codeBlock {
	t.Helper()
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	var out []codeBlock
	var cur *codeBlock
	prev := ""
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &codeBlock{lang: strings.TrimPrefix(l, "```"), after: prev}
		case cur != nil && l == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
		if strings.TrimSpace(l) != "" {
			prev = l
		}
	}
	if cur != nil {
		t.Fatal("README.md: unterminated code block")
	}
	return out
}

func TestREADMECommands(t *testing.T) {
	blocks := readmeBlocks(t)
	mk, err := os.ReadFile(makefilePath)
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(goModPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the commands write their files here
	ran := 0
	for _, b := range blocks {
		if b.lang != "sh" {
			continue
		}
		for _, line := range b.lines {
			cmd := strings.TrimSpace(line)
			if i := strings.Index(cmd, " #"); i >= 0 {
				cmd = strings.TrimSpace(cmd[:i])
			}
			if cmd == "" {
				continue
			}
			words := strings.Fields(cmd)
			switch {
			case strings.ContainsAny(cmd, `"'$|;&<>`):
				t.Errorf("README command %q: quoting and shell syntax are not understood by this test", cmd)
			case words[0] == "make":
				for _, w := range words[1:] {
					if !strings.Contains(w, "=") && !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(w)+`:`).Match(mk) {
						t.Errorf("README command %q: the Makefile has no target %s", cmd, w)
					}
				}
			case cmd == "go get github.com/rfkit/rfkit":
				if !strings.HasPrefix(string(gomod), "module github.com/rfkit/rfkit\n") {
					t.Errorf("README command %q: go.mod is not that module", cmd)
				}
			default:
				runREADMECommand(t, cmd, words)
				ran++
			}
		}
	}
	if ran < 5 {
		t.Errorf("ran only %d rfkit commands from the README", ran)
	}
}

// runREADMECommand runs "[RFKIT_DISABLE=list] go run [-tags purego]
// ./cmd/rfkit args..." in-process. A forced path is set with asm.SetPath,
// as the environment or the build tag would select it at start-up.
func runREADMECommand(t *testing.T, cmd string, words []string) {
	t.Helper()
	var disabled []string
	if v, ok := strings.CutPrefix(words[0], "RFKIT_DISABLE="); ok {
		disabled = strings.Split(v, ",")
		words = words[1:]
	}
	purego := false
	if len(words) > 3 && words[0] == "go" && words[1] == "run" && words[2] == "-tags" && words[3] == "purego" {
		purego = true
		words = append([]string{"go", "run"}, words[4:]...)
	}
	if len(words) < 3 || words[0] != "go" || words[1] != "run" || words[2] != "./cmd/rfkit" {
		t.Errorf("README command %q: not a go run ./cmd/rfkit command this test can run", cmd)
		return
	}
	args := words[3:]
	want := ""
	if disabled != nil || purego {
		want = "generic"
		if !purego {
			for _, p := range []string{"avx512", "avx2", "neon"} {
				if slices.Contains(asm.Paths(), p) && !slices.Contains(disabled, p) {
					want = p
					break
				}
			}
		}
		restore, err := asm.SetPath(want)
		if err != nil {
			t.Fatal(err)
		}
		defer restore()
	}
	if len(args) > 0 && !slices.Contains(args, "-h") {
		switch args[0] {
		case "demo": // the same run, smaller
			args = append(args, "-ntrain", "300", "-ntest", "300", "-rounds", "30", "-features", "100", "-res", "40")
		case "bench":
			args = append(args, "-n", "256", "-benchtime", "1ms")
		case "cv":
			if testing.Short() { // the race detector and qemu are slow
				args = append(args, "-folds", "2", "-param", "features=50")
			}
		}
	}
	start := time.Now()
	r := rfkit(t, args...)
	t.Logf("README: %s: %v", cmd, time.Since(start).Round(time.Millisecond))
	if r.code != 0 {
		t.Errorf("README command %q: exit %d, stderr %s", cmd, r.code, r.stderr)
		return
	}
	if want != "" && !strings.Contains(r.stdout, "selected path "+want) {
		t.Errorf("README command %q: path %s not selected:\n%s", cmd, want, r.stdout)
	}
}

// TestREADMEMethods checks the methods table against the registry: every
// registered method has a row, and a row marked "in progress" is not
// registered.
func TestREADMEMethods(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	// The first table after "## Methods".
	_, section, ok := strings.Cut(string(data), "\n## Methods\n")
	if !ok {
		t.Fatal("README.md: no Methods section")
	}
	var table []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "|") {
			table = append(table, l)
		} else if len(table) > 0 {
			break
		}
	}
	rows := map[string]string{}
	cell := regexp.MustCompile("^\\| `([a-z0-9]+)` \\|")
	for _, l := range table {
		if m := cell.FindStringSubmatch(l); m != nil {
			rows[m[1]] = l
		}
	}
	if len(rows) < 9 {
		t.Fatalf("README.md: %d rows in the methods table", len(rows))
	}
	names := methodNames()
	for _, n := range names {
		row, ok := rows[n]
		switch {
		case !ok:
			t.Errorf("README.md: no row for the registered method %s in the methods table", n)
		case strings.Contains(row, "in progress"):
			t.Errorf("README.md: %s is registered but marked in progress", n)
		default:
			// The task column names the tasks the method declared at
			// registration (what precedes a parenthesis), in the order
			// binary, multiclass, regression.
			cells := strings.Split(row, "|")
			m, _ := learners.Lookup(n)
			var want []string
			for _, t := range []learners.Task{learners.Binary, learners.Multiclass, learners.Regression} {
				if slices.Contains(m.Tasks, t) {
					want = append(want, t.String())
				}
			}
			if len(cells) < 4 {
				t.Errorf("README.md: the row of %s has no task column", n)
			} else if got, _, _ := strings.Cut(cells[3], "("); strings.TrimSpace(got) != strings.Join(want, ", ") {
				t.Errorf("README.md: %s's tasks are %q in the methods table, %q declared at registration", n, strings.TrimSpace(got), strings.Join(want, ", "))
			}
		}
	}
	for n, row := range rows {
		if !slices.Contains(names, n) && !strings.Contains(row, "in progress") {
			t.Errorf("README.md: %s is not registered (not imported in methods.go?) but not marked in progress", n)
		}
	}
}

// embedExample is the library example README.md quotes.
const embedExample = "../../learners/gbrff/example_embed_test.go"

// TestREADMEExample checks that the README's Go example is the code of
// embedExample between its markers.
func TestREADMEExample(t *testing.T) {
	src, err := os.ReadFile(embedExample)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	begin, end := strings.Index(s, "// README:begin\n"), strings.Index(s, "// README:end\n")
	if begin < 0 || end < begin {
		t.Fatal(embedExample + ": README markers not found")
	}
	want := strings.TrimSpace(s[begin+len("// README:begin\n") : end])
	found := false
	for _, b := range readmeBlocks(t) {
		if b.lang == "go" && strings.Contains(b.after, "learners/gbrff/example_embed_test.go") {
			found = true
			if got := strings.TrimSpace(strings.Join(b.lines, "\n")); got != want {
				t.Errorf("README.md's embedding example differs from %s:\n%s\n---- want ----\n%s", embedExample, got, want)
			}
		}
	}
	if !found {
		t.Error("README.md: no go block after a comment naming learners/gbrff/example_embed_test.go")
	}
}

// TestMethodsLinked checks that methods.go imports every learner package
// that registers a method (kit.Define or DefineWeighted).
func TestMethodsLinked(t *testing.T) {
	imports, err := os.ReadFile("methods.go")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob("../../learners/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		srcs, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		registers := false
		for _, f := range srcs {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			registers = registers || strings.Contains(string(b), "kit.Define")
		}
		pkg := "github.com/rfkit/rfkit/learners/" + filepath.Base(dir)
		if registers && !strings.Contains(string(imports), `"`+pkg+`"`) {
			t.Errorf("learner package %s registers a method but cmd/rfkit/methods.go does not import it; add\n\t_ %q", filepath.Base(dir), pkg)
		}
	}
}
