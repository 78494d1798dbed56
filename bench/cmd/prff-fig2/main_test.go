package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSmoke runs the whole protocol at tiny sizes on cadata (skipped
// when ../shared/datasets is absent) and checks the table.
func TestRunSmoke(t *testing.T) {
	data := filepath.Join("..", "..", "..", "..", "shared", "datasets")
	if _, err := os.Stat(filepath.Join(data, "cadata", "cadata.csv")); err != nil {
		t.Skip("no ../shared/datasets")
	}
	out := filepath.Join(t.TempDir(), "fig2.md")
	o := options{data: data, n: 120, feats: []int{5, 20}, seeds: 1, sets: []string{"cadata"}, out: out}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"## cadata (N = 120, d = 8)", "| D | PRFF | RFF | ORF | Nyström | best |", "| 5 | ", "| 20 | ", "(b) Nyström below the three at every D: "} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []options{
		{n: 1, feats: []int{2}, seeds: 1},
		{n: 10, feats: []int{20}, seeds: 1, sets: []string{"cadata"}},
		{n: 10, feats: []int{2}, seeds: 1, sets: []string{"nope"}},
	} {
		if err := run(context.Background(), o, io.Discard); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if _, err := ints("10,x"); err == nil {
		t.Error(`ints("10,x") succeeded`)
	}
}
