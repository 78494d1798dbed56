package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/dataset/synth"
)

// runCmd runs the command in-process and returns its stdout and stderr.
func runCmd(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(context.Background(), args, &out, &errb); err != nil {
		t.Fatalf("run %q: %v\nstderr:\n%s", args, err, errb.String())
	}
	return out.String(), errb.String()
}

// checkTable checks the shape of the report for the given sets and methods:
// the header, one row per set with a mean ± std cell per method and the
// paper's columns, the mean row, the count and seeds lines.
func checkTable(t *testing.T, report string, sets []string, methods []string, seeds int) {
	t.Helper()
	lines := strings.Split(report, "\n")
	hdr := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "| data set | n | d |") {
			hdr = i
			break
		}
	}
	if hdr < 0 {
		t.Fatalf("no table header in\n%s", report)
	}
	wantHdr := "| data set | n | d | " + strings.Join(methods, " | ") + " | paper GBRFF2 | paper GBRFF1 | paper PBRFF | GBRFF2 within 1 paper std |"
	if lines[hdr] != wantHdr {
		t.Fatalf("header\n%s\nwant\n%s", lines[hdr], wantHdr)
	}
	cols := 3 + len(methods) + 4
	if got := strings.Count(lines[hdr+1], "|") - 1; got != cols {
		t.Fatalf("alignment row has %d columns, want %d: %q", got, cols, lines[hdr+1])
	}
	cell := regexp.MustCompile(`^\d+\.\d ± \d+\.\d$`)
	within := regexp.MustCompile(`^(yes|no) \([+-]\d+\.\d\)$`)
	for k, name := range sets {
		row := strings.Split(strings.Trim(lines[hdr+2+k], "|"), "|")
		if len(row) != cols {
			t.Fatalf("row %q has %d cells, want %d", lines[hdr+2+k], len(row), cols)
		}
		for i := range row {
			row[i] = strings.TrimSpace(row[i])
		}
		if row[0] != name {
			t.Fatalf("row %d is %q, want %q", k, row[0], name)
		}
		for i := 3; i < 3+len(methods)+2; i++ {
			if !cell.MatchString(row[i]) {
				t.Errorf("%s: cell %d = %q, not mean ± std", name, i, row[i])
			}
		}
		if !within.MatchString(row[cols-1]) {
			t.Errorf("%s: last cell %q", name, row[cols-1])
		}
	}
	mean := lines[hdr+2+len(sets)]
	if len(sets) > 1 && !strings.HasPrefix(mean, fmt.Sprintf("| mean (%d sets, without bankmarketing) |", len(sets))) {
		t.Errorf("mean row %q", mean)
	}
	if len(sets) == 1 && mean != "" {
		t.Errorf("a mean row for one set: %q", mean)
	}
	if !regexp.MustCompile(fmt.Sprintf(`\*\*GBRFF2 within one paper std on [0-%d] of %d sets\.\*\*`, len(sets), len(sets))).MatchString(report) {
		t.Errorf("no count line in\n%s", report)
	}
	if !strings.Contains(report, fmt.Sprintf("Seeds used: %d (", seeds)) || !strings.Contains(report, "Total time: ") {
		t.Errorf("no seeds / time line in\n%s", report)
	}
}

// TestQuickReal runs -quick on two small sets of the shared data, as
// `go run ./bench/cmd/reproduce-gbrff -quick -sets wine,heart` does.
func TestQuickReal(t *testing.T) {
	if _, err := findData("../shared/datasets"); err != nil {
		t.Skip("the shared data sets are not here:", err)
	}
	out := filepath.Join(t.TempDir(), "sub", "table.md")
	stdout, stderr := runCmd(t, "-quick", "-sets", "heart,wine", "-seeds", "2", "-out", out)
	checkTable(t, stdout, []string{"wine", "heart"}, []string{"GBRFF2", "GBRFF1", "PBRFF", "RKS"}, 2)
	if !strings.Contains(stdout, "-quick run") {
		t.Error("the report does not say it is a -quick run")
	}
	if got, err := os.ReadFile(out); err != nil || string(got) != stdout {
		t.Errorf("-out file: %v (%d bytes, stdout %d)", err, len(got), len(stdout))
	}
	if n := strings.Count(stderr, "] "); n != 2*2*4 {
		t.Errorf("%d progress lines, want 16:\n%s", n, stderr)
	}
}

// writeSet writes a synthetic two-class set as DIR/name/name.csv.
func writeSet(t *testing.T, dir, name string, s *synth.Set) {
	t.Helper()
	var b strings.Builder
	for k := 0; k < s.D; k++ {
		fmt.Fprintf(&b, "x%d,", k)
	}
	b.WriteString("y\n")
	for i := 0; i < s.N; i++ {
		for _, v := range s.X[i*s.D : (i+1)*s.D] {
			fmt.Fprintf(&b, "%g,", v)
		}
		fmt.Fprintf(&b, "%g\n", s.Y[i])
	}
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name, name+".csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stripTimes removes the lines that depend on the machine.
func stripTimes(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "Seeds used:") || strings.HasPrefix(l, "| ") && strings.Count(l, "|") == 6 && !strings.HasPrefix(l, "| data set") {
			continue // the time line and the per-method rows (fit times)
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// TestQuickSynthetic runs on generated data under the names wine and heart
// (always available), checks the table's shape, and that the table does
// not depend on the number of workers.
func TestQuickSynthetic(t *testing.T) {
	dir := t.TempDir()
	moons, _ := synth.Moons(150, 0.2, 1)
	circles, _ := synth.Circles(200, 0.1, 2)
	writeSet(t, dir, "wine", moons)
	writeSet(t, dir, "heart", circles)
	a, _ := runCmd(t, "-quick", "-data", dir, "-sets", "wine,heart", "-seeds", "2", "-workers", "1")
	checkTable(t, a, []string{"wine", "heart"}, []string{"GBRFF2", "GBRFF1", "PBRFF", "RKS"}, 2)
	b, _ := runCmd(t, "-quick", "-data", dir, "-sets", "heart,wine", "-seeds", "2", "-workers", "3")
	if stripTimes(a) != stripTimes(b) {
		t.Errorf("-workers 1 and 3 give different tables:\n%s\n---\n%s", a, b)
	}
	// The cache: a second run reuses every result and gives the same table;
	// a run with more seeds computes only the new ones.
	cache := filepath.Join(dir, "cache.jsonl")
	first, _ := runCmd(t, "-quick", "-data", dir, "-sets", "wine,heart", "-seeds", "2", "-cache", cache)
	again, stderr := runCmd(t, "-quick", "-data", dir, "-sets", "wine,heart", "-seeds", "2", "-cache", cache)
	if !strings.Contains(stderr, "16 of 16 groups from the cache") || strings.Contains(stderr, "] ") {
		t.Errorf("second run with the cache:\n%s", stderr)
	}
	if stripTimes(first) != stripTimes(again) || stripTimes(first) != stripTimes(a) {
		t.Errorf("cached tables differ:\n%s\n---\n%s", first, again)
	}
	_, stderr = runCmd(t, "-quick", "-data", dir, "-sets", "wine,heart", "-seeds", "3", "-cache", cache)
	if !strings.Contains(stderr, "16 of 24 groups from the cache") || strings.Count(stderr, "] ") != 8 {
		t.Errorf("third run with the cache:\n%s", stderr)
	}
	if _, stderr = runCmd(t, "-quick", "-data", dir, "-sets", "wine", "-seeds", "1", "-T", "5", "-cache", cache); strings.Contains(stderr, "from the cache") {
		t.Errorf("another T reused the cache:\n%s", stderr)
	}
	if err := os.WriteFile(cache, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"-quick", "-data", dir, "-sets", "wine", "-cache", cache}, new(bytes.Buffer), new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "line 1 is not a cache entry") {
		t.Errorf("corrupt cache: %v", err)
	}

	// A subset of the methods, one seed, -maxtrain.
	c, _ := runCmd(t, "-quick", "-data", dir, "-sets", "heart", "-seeds", "1", "-methods", "rks,gbrff2", "-maxtrain", "80,gbrff2=0")
	checkTable(t, c, []string{"heart"}, []string{"GBRFF2", "RKS"}, 1)
	if !strings.Contains(c, "(-maxtrain 80,gbrff2=0): RKS to 80 rows;") {
		t.Errorf("-maxtrain not reported:\n%s", c)
	}
}

func TestNewSplit(t *testing.T) {
	s, _ := synth.Moons(1000, 0.1, 3)
	for i := 0; i < 300; i++ { // unbalance the classes: 350 positives
		s.Y[i] = -1
	}
	ds := &dataset.Dataset{X: s.X, N: s.N, D: s.D, Y: s.Y}
	pos := func(idx []int) float64 {
		p := 0
		for _, i := range idx {
			if s.Y[i] > 0 {
				p++
			}
		}
		return float64(p) / float64(len(idx))
	}
	full, err := newSplit(ds, 5, 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := newSplit(ds, 5, 200, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.train) != 700 || len(full.test) != 300 || len(sub.train) != 200 || !equal(sub.test, full.test) {
		t.Fatalf("split sizes %d/%d, subsampled %d/%d", len(full.train), len(full.test), len(sub.train), len(sub.test))
	}
	in := map[int]bool{}
	for _, i := range full.train {
		in[i] = true
	}
	for _, i := range sub.train {
		if !in[i] {
			t.Fatalf("subsampled row %d is not in the training part", i)
		}
	}
	if p, q := pos(full.train), pos(sub.train); p < 0.34 || p > 0.36 || q < 0.34 || q > 0.36 {
		t.Errorf("positive fractions %.3f, %.3f, want 0.35", p, q)
	}
	total := 0
	for _, f := range sub.folds {
		total += len(f)
	}
	if len(sub.folds) != 5 || total != 200 {
		t.Errorf("%d folds of %d rows", len(sub.folds), total)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFlagErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-data", dir, "-sets", "iris"}, `unknown data set "iris"`},
		{[]string{"-data", dir, "-sets", "wine,wine"}, `"wine" given twice`},
		{[]string{"-data", dir, "-methods", "svm"}, `unknown method "svm"`},
		{[]string{"-data", dir, "-methods", ","}, "no method"},
		{[]string{"-data", dir, "-seeds", "0"}, "-seeds 0"},
		{[]string{"-data", dir, "-T", "0"}, "-T 0"},
		{[]string{"-data", dir, "-folds", "1"}, "-folds 1"},
		{[]string{"-data", dir, "-maxtrain", "3"}, `-maxtrain 3: "3" is not 0 (no limit) or a row count ≥ 10`},
		{[]string{"-data", dir, "-maxtrain", "svm=100"}, `unknown method "svm"`},
		{[]string{"-data", dir, "-maxtrain", "pbrff=100,pbrff=200"}, "given twice"},
		{[]string{"-data", dir, "-maxtrain", "many"}, `"many" is not`},
		{[]string{"-data", dir, "-workers", "0"}, "-workers 0"},
		{[]string{"-data", filepath.Join(dir, "none")}, "no such directory"},
		{[]string{"-data", dir, "-sets", "wine"}, "wine.csv"}, // no file
		{[]string{"-data", dir, "extra"}, "unexpected arguments"},
		{[]string{"-bogus"}, "flag provided but not defined"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), c.args, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.args, err, c.want)
		}
	}
}
