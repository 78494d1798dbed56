package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/gbrff"
)

// TestStagedIsPrefixFit checks what every figure relies on: the model read
// after t rounds of a T-round fit scores like a fit with T = t, for both
// variants, and the expansion read from the model file scores like the
// model itself.
func TestStagedIsPrefixFit(t *testing.T) {
	tr, err := synth.Moons(120, moonsNoise, 3)
	if err != nil {
		t.Fatal(err)
	}
	X := featmap.Dense(tr.N, tr.D, tr.X)
	for _, cfg := range []gbrff.Config{
		// γ = 1/d (d = 2) as every figure passes one: the staged reader
		// takes the raw-input files of explicit-γ fits (version 1)
		{Variant: gbrff.VariantGBRFF2, T: 12, Seed: 5, Gamma: 0.5},
		{Variant: gbrff.VariantGBRFF1, T: 12, K: 3, Seed: 5, Gamma: 0.5},
	} {
		m, e, err := fitGBRFF(X, tr.Y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.check(m, X); err != nil {
			t.Fatalf("%s: %v", cfg.Variant, err)
		}
		if e.rounds() != cfg.T {
			t.Fatalf("%s: %d rounds, want %d", cfg.Variant, e.rounds(), cfg.T)
		}
		cuts := []int{1, 5, 12}
		S, err := e.stagedScores(X, cuts)
		if err != nil {
			t.Fatal(err)
		}
		for c, T := range cuts {
			short := cfg
			short.T = T
			ms, _, err := fitGBRFF(X, tr.Y, short)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < X.Rows; i++ {
				if want := ms.Score(X.Row(i)); math.Abs(S[c][i]-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("%s: row %d after %d rounds: staged %v, fit with T = %d gives %v", cfg.Variant, i, T, S[c][i], T, want)
				}
			}
		}
		if _, err := e.stagedScores(X, []int{cfg.T + 1}); err == nil {
			t.Errorf("%s: a cut beyond the model's rounds gave no error", cfg.Variant)
		}
	}
}

// skipSlowEmulated skips a whole-figure run under -short off amd64 (qemu
// takes 20–40 s for one) and under the race detector (about 100 s): these
// tests check the reports, not arithmetic, which TestStagedIsPrefixFit
// checks everywhere.
func skipSlowEmulated(t *testing.T) {
	if testing.Short() && (runtime.GOARCH != "amd64" || raceEnabled) {
		t.Skip("whole-figure run: amd64 without -race only under -short")
	}
}

func TestFig1WritesReport(t *testing.T) {
	skipSlowEmulated(t)
	dir := t.TempDir()
	if err := runFig(1, options{outdir: dir, seeds: 1}, io.Discard); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "gbrff-fig1.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| GBRFF1 (K = 1) |", "paper: 100 %", "Wall time", "gbrff-fig1.png"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("gbrff-fig1.md lacks %q", want)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "gbrff-fig1.png")); err != nil || st.Size() == 0 {
		t.Errorf("no plot: %v", err)
	}
}

func TestReadXGBoost(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.txt")
	out := `GBRFF2 at its defaults (rfkit BenchmarkFit) vs XGBoost 1.7.4 hist (100 trees, depth 5, nthread = 1), d = 20
     gen        n | booster cpu default cpu passes/rd | default wall 2-core wall speed-up |   xgb wall    xgb cpu  xgb err | xgb/default cpu
defaults      150 |         nan         nan       nan |         nan         nan      nan |     0.1110     0.0309   0.0000 |             nan
defaults     1000 |      0.0081      0.0120      26.4 |      0.0130      0.0090     1.44 |     0.0916     0.0950   0.0100 |            7.92
   other     1000 |      0.0090      0.0130      20.1 |      0.0140      0.0100     1.40 |     0.4749     0.1698   0.0300 |           13.06
`
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readXGBoost(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[150] != [3]float64{0.111, 0.0309, 0} || got[1000] != [3]float64{0.0916, 0.095, 0.01} {
		t.Errorf("readXGBoost = %v", got)
	}
	if err := os.WriteFile(path, []byte("XGBOOST NOT AVAILABLE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readXGBoost(path); err == nil {
		t.Error("a file without rows gave no error")
	}
}

func TestReadXGBToysNeedsEveryRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.txt")
	if err := os.WriteFile(path, []byte("# header\nmoons 50 1 100.000 90.000 3\nmoons 50 2 100.000 80.000 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readXGBToys(path, []string{"moons"}, []int{50}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if c := got["moons"][0]; c.test != 85 || c.train != 100 || c.gamma != 4 {
		t.Errorf("mean = %+v, want test 85, train 100, depth 4", c)
	}
	if _, err := readXGBToys(path, []string{"moons"}, []int{50}, 3); err == nil {
		t.Error("a missing seed gave no error")
	}
}

func TestParseFigs(t *testing.T) {
	if f, err := parseFigs("all"); err != nil || len(f) != 5 {
		t.Errorf("all: %v %v", f, err)
	}
	for _, bad := range []string{"0", "6", "x", "1,,2"} {
		if _, err := parseFigs(bad); err == nil {
			t.Errorf("-fig %q accepted", bad)
		}
	}
}

// sharedData is ../shared/datasets beside the module root, or "" (the test
// then skips).
func sharedData(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for ; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "datasets")
			if _, err := os.Stat(filepath.Join(d, "wine", "wine.csv")); err != nil {
				t.Skipf("no data sets at %s", d)
			}
			return d
		}
		if filepath.Dir(dir) == dir {
			t.Skip("no module root")
		}
	}
}

// TestFigs23Smoke runs figs. 2 and 3 on wine with one split.
func TestFigs23Smoke(t *testing.T) {
	skipSlowEmulated(t)
	o := options{data: sharedData(t), outdir: t.TempDir(), seeds: 1, sets: []string{"wine"}, noPNG: true}
	for _, k := range []int{2, 3} {
		if err := runFig(k, o, io.Discard); err != nil {
			t.Fatalf("fig. %d: %v", k, err)
		}
		md, err := os.ReadFile(filepath.Join(o.outdir, "gbrff-fig"+string(rune('0'+k))+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), "-sets wine") || !strings.Contains(string(md), "Checks") {
			t.Errorf("fig. %d report:\n%s", k, md)
		}
	}
}
