package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplit: rfkit split keeps the header and every row once, in input
// order, stratifies class labels, is reproducible for a seed, and refuses
// bad input with a usage error.
func TestSplit(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := 0; i < 100; i++ {
		y := "-1"
		if i%4 == 0 { // 25 positives, 75 negatives
			y = "1"
		}
		fmt.Fprintf(&b, "%d,%d.5,%s\n", i, i, y)
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, te := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	rfkit(t, "split", "-data", in, "-train", tr, "-test", te, "-test-fraction", "0.2", "-seed", "7").ok(t)
	read := func(p string) []string {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	train, test := read(tr), read(te)
	if train[0] != "a,b,y" || test[0] != "a,b,y" {
		t.Fatalf("headers %q, %q", train[0], test[0])
	}
	if len(train)-1 != 80 || len(test)-1 != 20 {
		t.Fatalf("%d training and %d test rows, want 80 and 20", len(train)-1, len(test)-1)
	}
	var pos int
	seen := map[string]bool{}
	for _, part := range [][]string{train[1:], test[1:]} {
		prev := -1
		for _, r := range part {
			var i int
			fmt.Sscanf(r, "%d,", &i)
			if i <= prev || seen[r] {
				t.Fatalf("row %q out of order or twice", r)
			}
			prev, seen[r] = i, true
		}
	}
	for _, r := range test[1:] {
		if strings.HasSuffix(r, ",1") {
			pos++
		}
	}
	if len(seen) != 100 || pos != 5 {
		t.Errorf("%d distinct rows, %d positives in the test file; want 100 and 5 (stratified)", len(seen), pos)
	}
	tr2, te2 := filepath.Join(dir, "train2.csv"), filepath.Join(dir, "test2.csv")
	rfkit(t, "split", "-data", in, "-train", tr2, "-test", te2, "-test-fraction", "0.2", "-seed", "7").ok(t)
	if strings.Join(read(te2), "\n") != strings.Join(test, "\n") {
		t.Error("the same seed gave a different split")
	}
	for _, args := range [][]string{
		{"split", "-data", in, "-train", tr},
		{"split", "-data", in, "-train", tr, "-test", tr},
		{"split", "-data", in, "-train", tr, "-test", te, "-test-fraction", "1"},
		{"split", "-data", in, "-train", tr, "-test", te, "-label", "zz"},
	} {
		if r := rfkit(t, args...); r.code != 2 {
			t.Errorf("%q: exit %d, want 2 (usage); stderr %q", args, r.code, r.stderr)
		}
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,y\n1,2\n3,x\n"), 0o644)
	if r := rfkit(t, "split", "-data", bad, "-train", tr, "-test", te); r.code != 1 || !strings.Contains(r.stderr, "data row 2") {
		t.Errorf("non-numeric label: exit %d, stderr %q", r.code, r.stderr)
	}
}
