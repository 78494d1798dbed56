package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRunTiny runs the whole command on two tiny CSV sets.
func TestRunTiny(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, name+".csv"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b, r strings.Builder
	b.WriteString("a,b,y\n")
	r.WriteString("a,b,y\n")
	for i := 0; i < 120; i++ {
		x1, x2 := float64(i%11)-5, float64(i%7)-3
		lab := -1
		if x1*x1+x2*x2 < 9 {
			lab = 1
		}
		b.WriteString(strings.Join([]string{ftoa(x1), ftoa(x2), ftoa(float64(lab))}, ",") + "\n")
		r.WriteString(strings.Join([]string{ftoa(x1), ftoa(x2), ftoa(x1*0.5 + x2)}, ",") + "\n")
	}
	write("bin", b.String())
	write("reg", r.String())
	var out bytes.Buffer
	err := run(&out, options{data: dir, binary: "bin", regression: "reg", features: []int{4, 8}, seeds: 2, prefix: 30, etas: []float64{0.001, 0.01}})
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"## bin (n = 120, d = 2)", "## reg", "| 4 |", "| 8 |", "RRF below FOGD"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if _, err := parseInts("1,x"); err == nil {
		t.Error("parseInts accepted x")
	}
	if err := run(&out, options{data: dir, binary: "missing", features: []int{4}, seeds: 1, prefix: 10, etas: []float64{1}}); err == nil {
		t.Error("missing data set accepted")
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
