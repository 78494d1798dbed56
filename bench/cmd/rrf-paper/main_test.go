package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

// writeSet writes n rows of a d-input set to dir/name/name.csv: a binary
// label (±1 by the sign of a smooth function) or a regression target.
func writeSet(t *testing.T, dir, name string, n, d int, regression bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	var sb strings.Builder
	for j := 0; j < d; j++ {
		fmt.Fprintf(&sb, "x%d,", j)
	}
	sb.WriteString("y\n")
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < d; j++ {
			v := r.NormFloat64()
			s += math.Sin(v) * float64(j+1)
			fmt.Fprintf(&sb, "%.6g,", v)
		}
		if regression {
			fmt.Fprintf(&sb, "%.6g\n", s+0.1*r.NormFloat64())
		} else {
			fmt.Fprintf(&sb, "%g\n", math.Copysign(1, s))
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name, name+".csv"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunSmall(t *testing.T) {
	dir := t.TempDir()
	writeSet(t, dir, "casp", 300, 4, true)
	writeSet(t, dir, "occupancy", 300, 3, false)
	out := filepath.Join(dir, "out.md")
	o := options{data: dir, out: out, png: dir, seeds: 2, prefix: 0.1, sweepSet: "occupancy", sets: []string{"casp", "occupancy", "sweep"}}
	if err := run(o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Table 2: casp", "RRF-ℓ2", "NOGD B=400", "Table 1 protocol", "RRF-Logit", "| 400 |", "rrf-fig2-time.png"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %q:\n%s", want, b)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "rrf-fig2-mistakes.png")); err != nil {
		t.Error(err)
	}
	if err := run(options{data: dir, seeds: 1, prefix: 0.1, sets: []string{"nope"}}); err == nil {
		t.Error("unknown part accepted")
	}
	if err := run(options{data: dir, seeds: 1, prefix: 1.5, sets: []string{"casp"}}); err == nil {
		t.Error("prefix 1.5 accepted")
	}
}

// TestNOGDLearns: online NOGD on a linearly separable stream makes few
// mistakes after its budget phase, in both phases' code paths.
func TestNOGDLearns(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	l := newNOGD(2, 20, 0.5, 0.5, learners.Binary)
	for i := 0; i < 2000; i++ {
		x := []float64{r.NormFloat64(), r.NormFloat64()}
		y := math.Copysign(1, x[0]+x[1])
		if err := l.update(x, y); err != nil {
			t.Fatal(err)
		}
	}
	if l.nys == nil {
		t.Fatal("the budget phase never ended")
	}
	if mr := l.stats().MistakeRate(); !(mr < 0.1) {
		t.Errorf("mistake rate %.3f, want < 0.1", mr)
	}
}

// TestNOGDDiverges: a step size that blows the scores up is an error, not
// a NaN RMSE.
func TestNOGDDiverges(t *testing.T) {
	l := newNOGD(1, 2, 1, 1e300, learners.Regression)
	var err error
	for i := 0; i < 50 && err == nil; i++ {
		err = l.update([]float64{float64(i % 3)}, 1e300)
	}
	if err == nil {
		t.Fatalf("no error; RMSE %v", l.stats().RMSE())
	}
}
