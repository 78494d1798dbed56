package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTiny runs the whole pipeline at toy sizes and checks the table.
func TestRunTiny(t *testing.T) {
	// At most 20 alternations: on 40 rows the smallest λ interpolates, J
	// tends to 0 and the relative stopping rule never holds.
	o := options{sets: []string{"SE1", "SE2"}, sizes: []int{40}, test: 50, features: 10, lambdas: 2, maxIter: 20, seed: 1}
	res, err := run(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || len(res[0].top) != 5 || len(res[1].relevant) != 5 {
		t.Fatalf("results %+v", res)
	}
	md := markdown(o, res)
	for _, want := range []string{"| SE1 | 40 |", "| SE2 | 40 |", "SE2 {1,…,5}", "Targets"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	if _, err := run(context.Background(), options{sets: []string{"SE9"}, sizes: []int{40}, test: 10, features: 4, lambdas: 1}, io.Discard); err == nil {
		t.Error("unknown set accepted")
	}
}

// TestDrawGammas draws the γ plot of a tiny run (two replications of one
// size) and checks a PNG appears per (set, n), and that a result without γ
// is an error rather than an empty plot.
func TestDrawGammas(t *testing.T) {
	o := options{sets: []string{"SE1"}, sizes: []int{40}, test: 20, features: 8, lambdas: 1, maxIter: 5, seed: 1,
		reps: func(int) int { return 2 }}
	res, err := run(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(t.TempDir(), "fig1")
	paths, err := drawGammas(prefix, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 1 || paths[0] != prefix+"-SE1-40.png" {
		t.Fatalf("paths %v", paths)
	}
	b, err := os.ReadFile(paths[0])
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatalf("not a PNG (%d bytes, %v)", len(b), err)
	}
	res[0].gamma = nil
	if _, err := drawGammas(prefix, res[:1]); err == nil {
		t.Error("a result without γ drew a plot")
	}
}
