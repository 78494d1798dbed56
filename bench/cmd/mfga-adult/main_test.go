package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
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
	if err := resultfile.Write(path, []byte(b.String())); err != nil {
		t.Fatal(err)
	}
}

func TestRunTiny(t *testing.T) {
	dir := t.TempDir()
	writeSet(t, filepath.Join(dir, "a9a_train.csv"), 200, 1)
	writeSet(t, filepath.Join(dir, "a9a_test.csv"), 100, 2)
	out := filepath.Join(dir, "table.md")
	var stdout bytes.Buffer
	err := run([]string{"-data", dir, "-m", "3,5", "-seeds", "2", "-candidates", "20", "-perstep", "2", "-grid", "1e-3,1e-1,1", "-diag", "-out", out}, &stdout)
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
	for _, want := range []string{"| MFGA | 3 |", "| RKS | 5 |", "| EERF | 3 |", "| LKRF | 5 |", "| EERF, raw y | 5 |", "| LKRF, raw y | 3 |",
		"Train 200 × 6, test 100 rows", "λ grid {0.001, 0.1, 1}", "160 fit / 40 validation rows", "| all candidates | 20 |", "| LKRF (", "-diag"} {
		if !strings.Contains(table, want) {
			t.Errorf("report lacks %q:\n%s", want, table)
		}
	}
	// 8 main rows, 12 validation rows (with the 4 diagnostic variants), 4
	// diagnostic results, 1 + 2·5 feature statistics.
	if n := strings.Count(table, "\n| ") - 4; n != 8+12+4+11 {
		t.Errorf("%d table rows:\n%s", n, table)
	}
}

// TestPathMatchesLearners checks that the λ path computes the scores of
// rks.Fit and rfselect.Fit bit for bit.
func TestPathMatchesLearners(t *testing.T) {
	dir := t.TempDir()
	writeSet(t, filepath.Join(dir, "tr.csv"), 150, 3)
	writeSet(t, filepath.Join(dir, "te.csv"), 60, 4)
	X, y, err := load(filepath.Join(dir, "tr.csv"), 0)
	if err != nil {
		t.Fatal(err)
	}
	Xe, ye, err := load(filepath.Join(dir, "te.csv"), 0)
	if err != nil {
		t.Fatal(err)
	}
	b := &bench{o: options{}, ctx: context.Background(), gamma: 0.3, candidates: 25}
	const M = 6
	for _, meth := range b.rfMethods() {
		for _, seed := range []uint64{1, 2} {
			p, err := newPath(X, y, Xe, ye, meth.mf, meth.headFunc(), M, seed)
			if err != nil {
				t.Fatal(err)
			}
			for _, lambda := range []float64{1e-4, 0.1} {
				s, err := p.scores(lambda)
				if err != nil {
					t.Fatal(err)
				}
				m, err := meth.fit(X, y, M, lambda, seed)
				if err != nil {
					t.Fatal(err)
				}
				sc := m.(interface{ Score([]float64) float64 })
				for i := range s {
					if got := sc.Score(Xe.Row(i)); got != s[i] {
						t.Fatalf("%s seed %d λ=%g row %d: learner score %v, path %v", meth.name, seed, lambda, i, got, s[i])
					}
				}
				pe, err := p.errRate(lambda)
				if err != nil {
					t.Fatal(err)
				}
				le, err := errRate(m, Xe, ye)
				if err != nil {
					t.Fatal(err)
				}
				if pe != le {
					t.Errorf("%s: path error %v, learner %v", meth.name, pe, le)
				}
			}
		}
	}
}

func TestChoose(t *testing.T) {
	if k := choose([]float64{3, 1, 2, 1, 5}); k != 3 {
		t.Errorf("choose = %d, want 3 (ties to the larger λ)", k)
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
		{[]string{"-grid", "1e-3,x"}, `-grid: "x" is not a positive finite λ`},
		{[]string{"-grid", "0"}, `-grid: "0"`},
		{[]string{"-valfrac", "1"}, "-valfrac = 1"},
		{[]string{"-data", dir}, "a9a_train.csv"},
	} {
		if err := run(c.args, new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
