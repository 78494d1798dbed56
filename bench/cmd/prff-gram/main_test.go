package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTiny runs the whole protocol at tiny sizes and checks the table.
func TestRunTiny(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gram.md")
	o := options{n: 150, dims: []int{3, 5}, feats: []int{4, 8}, seeds: 2, out: out}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"| d | D | PRFF | RFF | ORF |", "| 3 | 4 |", "| 5 | 8 |", "PRFF is below RFF at every D and d: "} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "\n| "); n != 5 { // header + 4 rows
		t.Errorf("%d table rows:\n%s", n, s)
	}
}

func TestBadOptions(t *testing.T) {
	if err := run(context.Background(), options{n: 1, dims: []int{2}, feats: []int{2}, seeds: 1}, io.Discard); err == nil {
		t.Error("n = 1 accepted")
	}
	if _, err := ints("10,x"); err == nil {
		t.Error(`ints("10,x") succeeded`)
	}
	if v, err := ints("25, 50"); err != nil || len(v) != 2 || v[1] != 50 {
		t.Errorf("ints: %v %v", v, err)
	}
}
