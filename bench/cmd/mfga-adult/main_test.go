package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSet writes a tiny a9a-like CSV: 6 binary inputs, label y = ±1
// from a nonlinear rule.
func writeSet(t *testing.T, path string, n int, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,x5,x6,y\n")
	for i := 0; i < n; i++ {
		var x [6]int
		for k := range x {
			x[k] = r.IntN(2)
		}
		y := -1
		if x[0] != x[1] || x[2] == 1 {
			y = 1
		}
		fmt.Fprintf(&b, "%d,%d,%d,%d,%d,%d,%d\n", x[0], x[1], x[2], x[3], x[4], x[5], y)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunTiny(t *testing.T) {
	dir := t.TempDir()
	writeSet(t, filepath.Join(dir, "a9a_train.csv"), 200, 1)
	writeSet(t, filepath.Join(dir, "a9a_test.csv"), 100, 2)
	out := filepath.Join(dir, "table.md")
	var stdout bytes.Buffer
	err := run([]string{"-data", dir, "-m", "3,5", "-seeds", "2", "-candidates", "20", "-perstep", "2", "-out", out}, &stdout)
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(file) != stdout.String() {
		t.Error("-out file differs from stdout")
	}
	table := stdout.String()
	for _, want := range []string{"| MFGA | 3 |", "| RKS | 5 |", "| EERF | 3 |", "| LKRF | 5 |", "Train 200 × 6, test 100 rows"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if n := strings.Count(table, "\n| "); n != 1+8 {
		t.Errorf("%d table rows:\n%s", n, table)
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-m", "x"}, `-m: "x" is not a positive integer`},
		{[]string{"-seeds", "0"}, "must be positive"},
		{[]string{"-data", dir}, "a9a_train.csv"},
	} {
		if err := run(c.args, new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
