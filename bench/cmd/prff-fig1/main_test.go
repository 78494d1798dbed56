package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSmoke runs the whole protocol at tiny sizes (with an evaluation
// subsample and a plot) and checks the table.
func TestRunSmoke(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "fig1.md")
	o := options{n: 60, evalRows: 40, dims: []int{1}, feats: []int{4, 12}, seeds: 2, out: out, png: filepath.Join(dir, "fig1")}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"E = 40 of the N = 60 points", "## d = 1", "| D | PRFF | RFF | ORF | Nyström | PRFF/RFF | best |", "| 4 | ", "| 12 | ", "PRFF below RFF at every D: ", "ORF worse than RFF at D > 10d: "} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "fig1-d1.png")); err != nil || fi.Size() == 0 {
		t.Errorf("no plot: %v", err)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []options{
		{n: 1, dims: []int{2}, feats: []int{2}, seeds: 1},
		{n: 10, dims: []int{2}, feats: []int{20}, seeds: 1},
		{n: 10, dims: []int{2}, feats: []int{2}, seeds: 0},
		{n: 10, evalRows: -1, dims: []int{2}, feats: []int{2}, seeds: 1},
	} {
		if err := run(context.Background(), o, io.Discard); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if _, err := ints("10,x"); err == nil {
		t.Error(`ints("10,x") succeeded`)
	}
}
