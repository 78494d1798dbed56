package fogd_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// TestVersion1Files: the golden files of version 1 (averaged weights only)
// still load, re-save to their own bytes (the conformance suite checks
// that), and predict the same bits as the version 2 model of the same
// training; they cannot be resumed.
func TestVersion1Files(t *testing.T) {
	old, _ := filepath.Glob(filepath.Join("testdata", "v1-*.model"))
	if len(old) != 4 {
		t.Fatalf("%d version 1 golden files, want 4", len(old))
	}
	for _, f := range old {
		v1data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v2data, err := os.ReadFile(filepath.Join("testdata", strings.TrimPrefix(filepath.Base(f), "v1-")))
		if err != nil {
			t.Fatal(err)
		}
		h1, err1 := modelfile.ReadHeader(v1data)
		h2, err2 := modelfile.ReadHeader(v2data)
		if err1 != nil || err2 != nil || h1.Version != 1 || h2.Version%modelfile.CalibratedVersion != 2 {
			t.Fatalf("%s: versions %v (%v), %v (%v)", f, h1, err1, h2, err2)
		}
		m1, err := fogd.Load(v1data)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := fogd.Load(v2data)
		if err != nil {
			t.Fatal(err)
		}
		d := m1.NumInputs()
		const rows = 200
		X := make([]float64, rows*d)
		for i := range X {
			X[i] = math.Sin(float64(i)*0.37) * 3
		}
		s1, s2 := make([]float64, rows), make([]float64, rows)
		if err := m1.ScoreBatch(s1, featmap.Dense(rows, d, X)); err != nil {
			t.Fatal(err)
		}
		if err := m2.ScoreBatch(s2, featmap.Dense(rows, d, X)); err != nil {
			t.Fatal(err)
		}
		for i := range s1 {
			if math.Float64bits(s1[i]) != math.Float64bits(s2[i]) {
				t.Fatalf("%s: row %d: version 1 scores %v, version 2 %v", f, i, s1[i], s2[i])
			}
		}
		if _, err := fogd.Resume(m1); err == nil || !strings.Contains(err.Error(), "version 1") {
			t.Errorf("%s: Resume: %v, want a version 1 error", f, err)
		}
		if _, err := fogd.Resume(m2); err != nil {
			t.Errorf("%s: Resume of the version 2 model: %v", f, err)
		}
	}
}

// TestResumeErrors: a Resume model refuses a Config that changes its
// task, Gamma or labels, and a version 1 model holds no state (the other
// resume errors are checked by the conformance suite).
func TestResumeErrors(t *testing.T) {
	const n = 120
	X, y := learnertest.Shifted(learners.Binary, n, 6)
	m := learnertest.MustFit(t, fogd.Fit, X, y, fogd.Config{Features: 10})
	base := m.Config()
	base.Resume = m
	with := func(f func(*fogd.Config)) fogd.Config { c := base; f(&c); return c }
	X2 := featmap.Dense(n, 2, X.Data[:2*n])
	v1, err := fogd.Load(must(os.ReadFile(filepath.Join("testdata", "v1-fit-hinge.model"))))
	if err != nil {
		t.Fatal(err)
	}
	learnertest.FitErrors(t, "fogd: ", fogd.Fit, []learnertest.FitCase[fogd.Config]{
		{Name: "task", X: X, Y: y, Cfg: with(func(c *fogd.Config) { c.Task = learners.Regression; c.Loss = ""; c.Labels = learners.Labels{} }), Want: "the model's task is binary"},
		{Name: "gamma", X: X, Y: y, Cfg: with(func(c *fogd.Config) { c.Gamma = 7 }), Want: "Gamma = 7"},
		{Name: "labels", X: X, Y: y, Cfg: with(func(c *fogd.Config) { c.Labels = learners.Labels{Neg: 0, Pos: 1} }), Want: "Labels = {0 1}"},
		{Name: "version 1", X: X2, Y: y, Cfg: fogd.Config{Resume: v1, Labels: v1.Config().Labels}, Want: "version 1 model holds only the averaged weights"},
	})
}

// TestLoadStateErrors: a version 2 file whose state disagrees with its
// averaged weights, or whose step count is not a count, is corrupt.
func TestLoadStateErrors(t *testing.T) {
	X, y := learnertest.Shifted(learners.Binary, 100, 7)
	m := learnertest.MustFit(t, fogd.Fit, X, y, fogd.Config{Features: 8, Calibrate: learners.Disabled})
	good := must(m.MarshalBinary())
	meta := func(v float64) []byte {
		return learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Header.Meta["steps"] = v })
	}
	bump := func(name string) []byte {
		return learnertest.Rewrite(t, good, func(f *modelfile.File) {
			for i := range f.Arrays {
				if f.Arrays[i].Name == name {
					f.Arrays[i].Data[3] = math.Nextafter(f.Arrays[i].Data[3], 10)
				}
			}
		})
	}
	learnertest.LoadErrors(t, "fogd: ", fogd.Load, []learnertest.LoadCase{
		{Name: "negative steps", Data: meta(-1), Want: "steps = -1"},
		{Name: "fractional steps", Data: meta(99.5), Want: "steps = 99.5"},
		{Name: "huge steps", Data: meta(1e300), Want: "steps = 1e+300"},
		{Name: "fewer steps", Data: meta(99), Want: "but the stored state gives"},
		{Name: "wsum", Data: bump("wsum"), Want: "w[3] = "},
		{Name: "w", Data: bump("w"), Want: "w[3] = "},
		{Name: "no wt", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) { f.Arrays[len(f.Arrays)-2].Name = "xx" }), Want: `no array "wt"`},
	})
}
