package main

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfkit/rfkit/internal/cputime"
	"github.com/rfkit/rfkit/learners"
)

func TestSplitStratifiedAndSeeded(t *testing.T) {
	y := make([]float64, 100)
	for i := range y {
		y[i] = -1
		if i%4 == 0 {
			y[i] = 1 // 25 positives
		}
	}
	s, _ := lookupSet("heart")
	a, b, c := makeSplit(s, y, 0), makeSplit(s, y, 0), makeSplit(s, y, 1)
	if !slices.Equal(a.Test, b.Test) || slices.Equal(a.Test, c.Test) {
		t.Fatal("the split is not a function of its seed")
	}
	all := slices.Concat(a.Train, a.Test)
	slices.Sort(all)
	for i, v := range all {
		if v != i {
			t.Fatalf("train ∪ test is not the rows 0..99 once each: %v", all)
		}
	}
	pos := 0
	for _, i := range a.Test {
		if y[i] == 1 {
			pos++
		}
	}
	if len(a.Test) != 31 || pos != 8 { // round(0.3·25) = 8, round(0.3·75) = 23
		t.Fatalf("test part: %d rows, %d positive; want 31 and 8", len(a.Test), pos)
	}
	r, _ := lookupSet("casp")
	if g := makeSplit(r, make([]float64, 1000), 3); len(g.Test) != 300 || len(g.Train) != 700 {
		t.Fatalf("regression split: %d/%d rows, want 700/300", len(g.Train), len(g.Test))
	}
}

func TestSelectSets(t *testing.T) {
	got, err := selectSets("regression,wine,table1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 21 || got[0].Name != "wine" || got[16].Name != "cpu_act" {
		t.Fatalf("got %d sets starting %v", len(got), got[0])
	}
	if _, err := selectSets("wine,nosuchset"); err == nil || !strings.Contains(err.Error(), "nosuchset") {
		t.Fatalf("unknown set: err = %v", err)
	}
	n := 0
	for _, s := range panelSets {
		if s.Table1 {
			n++
		}
	}
	if n != 16 {
		t.Fatalf("%d Table 1 sets, want 16", n)
	}
}

func TestFlagsRejected(t *testing.T) {
	for _, args := range [][]string{{"-splits", "0"}, {"-procs", "0"}, {"-cap", "x"}, {"-cap", "nosuch=1m"},
		{"-shard", "2/2"}, {"-learners", "nosuch"}, {"extra"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	o, err := parseFlags([]string{"-cap", "10m,srff=1h"}, io.Discard)
	if err != nil || o.capFor("srff") != time.Hour || o.capFor("rks") != 10*time.Minute {
		t.Fatalf("-cap: %v %v", o, err)
	}
}

func TestFitsTask(t *testing.T) {
	srff, _ := learners.Lookup("srff")
	pbrff, _ := learners.Lookup("pbrff")
	if fits(srff, learners.Binary) || !fits(srff, learners.Regression) || fits(pbrff, learners.Regression) || !fits(pbrff, learners.Binary) {
		t.Fatal("fits disagrees with the command (srff: regression only; pbrff: classification only)")
	}
}

func TestCPULimit(t *testing.T) {
	ctx, stop := withCPULimit(context.Background(), cputime.Process(), 30*time.Millisecond)
	defer stop()
	if cputime.Process() == 0 {
		t.Skip("no CPU time on this platform")
	}
	deadline := time.Now().Add(20 * time.Second)
	x := 1.0
	for ctx.Err() == nil && time.Now().Before(deadline) {
		for range 1000 {
			x = math.Sqrt(x + 1)
		}
	}
	if !errors.Is(context.Cause(ctx), errCapped) {
		t.Fatalf("cause %v, want errCapped (x = %v)", context.Cause(ctx), x)
	}
}

func TestStoreRewritesAtomically(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	s, err := openStore(path, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := s.add(&record{Learner: "rks", Set: "wine", Split: i, Accuracy: num(0.5 + float64(i)/10), LogLoss: num(math.NaN())}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.add(&record{Learner: "rks", Set: "wine", Split: 1, Error: "boom"}); err != nil {
		t.Fatal(err)
	}
	got, err := readRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got["rks|wine|1"].Error != "boom" || *got["rks|wine|2"].Accuracy != 0.7 || got["rks|wine|0"].LogLoss != nil {
		t.Fatalf("read back %v", got)
	}
	if err := os.WriteFile(path, []byte("{\"learner\":\"rks\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readRecords(path); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("malformed line: err = %v", err)
	}
}

// writeToySet writes a small separable binary set as dir/wine/wine.csv.
func writeToySet(t *testing.T, dir string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 80 {
		x0, x1 := float64(i%9)-4, float64(i%7)-3
		y := -1
		if x0+0.5*x1 > 0 {
			y = 1
		}
		fmt.Fprintf(&b, "%v,%v,%d\n", x0, x1, y)
	}
	if err := os.MkdirAll(filepath.Join(dir, "wine"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wine", "wine.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunResumes runs the panel on a toy set twice: the second run finds
// every record and fits nothing; the page and the split file are there.
func TestRunResumes(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	writeToySet(t, data)
	args := []string{"-data", data, "-out", out, "-splits", "2", "-sets", "wine", "-learners", "rks,gbrff2"}
	var log strings.Builder
	if err := run(context.Background(), args, &log); err != nil {
		t.Fatal(err, log.String())
	}
	recs, err := readRecords(filepath.Join(out, "rfkit.jsonl"))
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	g := recs["gbrff2|wine|1"]
	if !g.ok() || g.Accuracy == nil || g.LogLoss == nil || g.PredictNs <= 0 || g.Stats["rounds"] < 1 || g.NTest != 24 {
		t.Fatalf("gbrff2 record %+v", g)
	}
	log.Reset()
	if err := run(context.Background(), args, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "0 in this shard still to run") {
		t.Fatalf("the second run fitted again:\n%s", log.String())
	}
	page, err := os.ReadFile(filepath.Join(out, "panel.md"))
	if err != nil || !strings.Contains(string(page), "| rfkit gbrff2 |") || !strings.Contains(string(page), "## Below the trivial predictor") {
		t.Fatalf("page: %v\n%s", err, page)
	}
	if _, err := os.Stat(splitPath(out, "wine")); err != nil {
		t.Fatal(err)
	}
}

func acc(v float64) *float64 { return &v }

// TestHeadline checks the headline's aggregates on made-up records.
func TestHeadline(t *testing.T) {
	recs := map[string]*record{}
	add := func(l, set string, split int, a, ll float64, cpu float64) {
		r := &record{Learner: l, Set: set, Split: split, Accuracy: acc(a), LogLoss: acc(ll), FitCPU: cpu, PredictNs: 1000}
		recs[r.key()] = r
	}
	add("xgboost", "wine", 0, 0.9, 0.3, 1)
	add("xgboost", "wine", 1, 0.8, 0.3, 1)
	add("xgboost", "heart", 0, 0.7, 0.5, 2)
	add("xgboost", "heart", 1, 0.7, 0.5, 2)
	add("gbrff2", "wine", 0, 0.9, 0.2, 0.5)
	add("gbrff2", "wine", 1, 0.9, 0.2, 0.5)
	add("gbrff2", "heart", 0, 0.6, 0.4, 1)
	recs["gbrff2|heart|1"] = &record{Learner: "gbrff2", Set: "heart", Split: 1, TimedOut: true, CapS: 60}
	p := newPanel(recs)
	var b strings.Builder
	p.headline(&b)
	rows := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(rows) != 4 || !strings.HasPrefix(rows[2], "| XGBoost |") {
		t.Fatalf("headline:\n%s", b.String())
	}
	// gbrff2: wine 90 %, heart 60 % (one split) → 75 %; 1 of 2 sets ≥ XGBoost (wine 90 ≥ 85); CPU 0.5 + 1.
	for _, want := range []string{"| rfkit gbrff2 | 75.0 % | 0.300 | 1/2 | 1.5 |", "| XGBoost | 77.5 % | 0.400 | – | 3.0 |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("headline lacks %q:\n%s", want, b.String())
		}
	}
	var page strings.Builder
	p.render(&page, nil)
	for _, want := range []string{"| heart |", "60.0 (1)", "gbrff2 on heart, split 1: stopped at its limit of 60 CPU-s"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("page lacks %q:\n%s", want, page.String())
		}
	}
}

func TestUpdateReadme(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	readme := "# x\n\nbefore\n" + headBegin + "\nold table\n" + headEnd + "\nafter\n"
	if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	page := "# page\n" + headBegin + "\n| new |\n" + headEnd + "\nmore\n"
	if err := updateReadme(path, page); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := "# x\n\nbefore\n" + headBegin + "\n| new |\n" + headEnd + "\nafter\n"; string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if err := updateReadme(path, "no markers"); err == nil {
		t.Fatal("a page without the headline: no error")
	}
}

// TestReadmeHeadlineMatchesPage: the README's headline table is the one
// on bench/results/panel.md (make bench-panel writes both; after editing
// the page by hand, run go run ./bench/cmd/panel -report ... -readme).
func TestReadmeHeadlineMatchesPage(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../../results/panel.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := section(string(page))
	if err != nil {
		t.Fatalf("bench/results/panel.md: %v", err)
	}
	got, err := section(string(readme))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	if got != want {
		t.Fatalf("README.md's panel headline differs from bench/results/panel.md's: regenerate it with\n"+
			"go run ./bench/cmd/panel -report -out bench/out/panel -page bench/results/panel.md -readme README.md\n"+
			"or copy the section. README:\n%s\npage:\n%s", got, want)
	}
}

// TestEveryLearnerLinked: the panel links every learner package the rfkit
// command links, so that learners.Methods lists the same learners.
func TestEveryLearnerLinked(t *testing.T) {
	imports := func(path string) []string {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.Contains(p, "/learners/") {
				out = append(out, p)
			}
		}
		return out
	}
	have := imports("fit.go")
	for _, p := range imports("../../../cmd/rfkit/methods.go") {
		if !slices.Contains(have, p) {
			t.Errorf("the rfkit command links %s; the panel does not", p)
		}
	}
}

// TestCommonSplits: a set's row compares the learners on the splits they
// all have; a learner with no record on a set does not restrict it.
func TestCommonSplits(t *testing.T) {
	recs := map[string]*record{}
	add := func(l, set string, split int, a float64) {
		r := &record{Learner: l, Set: set, Split: split, Accuracy: acc(a)}
		recs[r.key()] = r
	}
	add("xgboost", "wine", 0, 0.5)
	add("xgboost", "wine", 1, 1.0)
	add("rks", "wine", 0, 0.7)
	add("rks", "heart", 0, 0.6)
	add("rks", "heart", 1, 0.8)
	add("rks", "heart", 2, 0.7)
	add("rks", "heart", 3, 0.7)
	add("rks", "heart", 4, 0.7)
	add("srff", "heart", 0, 0.2) // lagging: 1 of 5 splits
	add("xgboost", "heart", 0, 0.9)
	add("xgboost", "heart", 1, 0.9)
	add("xgboost", "heart", 2, 0.9)
	add("xgboost", "heart", 3, 0.9)
	p := newPanel(recs)
	if got := p.cells[[2]string{"xgboost", "wine"}].mean(accuracyOf); got != 0.5 {
		t.Errorf("xgboost on wine: %v, want 0.5 (split 0 only: rks has no split 1)", got)
	}
	if got := p.cells[[2]string{"rks", "heart"}].mean(accuracyOf); math.Abs(got-0.7) > 1e-12 || p.setSplits["heart"] != 4 {
		t.Errorf("rks on heart: %v over %d splits, want 0.7 over 4 (xgboost's; srff lags)", got, p.setSplits["heart"])
	}
	if c := p.cells[[2]string{"srff", "heart"}]; c == nil || len(c.ok) != 1 || p.cellText(c, accuracyOf, 100, "%.1f") != "20.0 (1)" {
		t.Errorf("the lagging learner's cell: %+v", c)
	}
	if p.dropped != 2 { // xgboost's wine split 1 and rks's heart split 4
		t.Errorf("%d records left out, want 2", p.dropped)
	}
}
