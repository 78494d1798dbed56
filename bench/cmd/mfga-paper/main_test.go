package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
)

func writeCSV(t *testing.T, path string, n, d int, seed uint64, regression bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	var sb strings.Builder
	for j := 0; j < d; j++ {
		fmt.Fprintf(&sb, "x%d,", j)
	}
	sb.WriteString("y\n")
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < d; j++ {
			v := r.NormFloat64()
			s += v * v * float64(j%2*2-1)
			fmt.Fprintf(&sb, "%.6g,", v)
		}
		if regression {
			fmt.Fprintf(&sb, "%.6g\n", s+0.1*r.NormFloat64())
		} else {
			fmt.Fprintf(&sb, "%g\n", math.Copysign(1, s+0.3*r.NormFloat64()))
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := resultfile.Write(path, []byte(sb.String())); err != nil {
		t.Fatal(err)
	}
}

func TestRunSmall(t *testing.T) {
	dir := t.TempDir()
	writeCSV(t, filepath.Join(dir, "adult_a9a", "a9a_train.csv"), 400, 4, 1, false)
	writeCSV(t, filepath.Join(dir, "adult_a9a", "a9a_test.csv"), 200, 4, 2, false)
	writeCSV(t, filepath.Join(dir, "cpu_act", "cpu_act.csv"), 400, 3, 3, true)
	out := filepath.Join(dir, "out.md")
	o := options{data: dir, out: out, grid: []float64{1e-3, 1e-1}, reps: 2, kernelM: 100, regKernelM: 100, parts: []string{"adult", "cpu_act"}}
	if err := run(o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"10 features per step", "(OMP)", "exact kernel, logistic, subsample 100", "Speed target", "## Regression: cpu_act", "RKS ridge | 100", "exact kernel ridge"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %q:\n%s", want, b)
		}
	}
	if err := run(options{data: dir, reps: 0, parts: []string{"adult"}, grid: []float64{1}}); err == nil {
		t.Error("reps 0 accepted")
	}
	if err := run(options{data: dir, reps: 1, parts: []string{"nope"}, grid: []float64{1}}); err == nil {
		t.Error("unknown part accepted")
	}
}

func TestSplit(t *testing.T) {
	a, b := split(10, 0.2, 1)
	if len(a) != 8 || len(b) != 2 {
		t.Fatalf("split sizes %d, %d", len(a), len(b))
	}
	seen := map[int]bool{}
	for _, i := range append(a, b...) {
		if seen[i] || i < 0 || i >= 10 {
			t.Fatalf("bad partition %v %v", a, b)
		}
		seen[i] = true
	}
}
