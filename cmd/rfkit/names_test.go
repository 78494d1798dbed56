package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/modelfile"
)

// wideCSV is n rows of 13 features x1..x13 (in the order of cols, a
// permutation of 1..13 or a subset) and a ±1 label y, the shape of the
// heart data set of the adversarial report.
func wideCSV(n int, header []string, cols []int, label bool) string {
	var b strings.Builder
	b.WriteString(strings.Join(header, ","))
	b.WriteByte('\n')
	for i := 0; i < n; i++ {
		var f []string
		for _, j := range cols {
			f = append(f, fmt.Sprintf("%.4g", math.Sin(float64(i*j+j))))
		}
		if label {
			y := -1
			if math.Sin(float64(i+1))+math.Sin(float64(2*i+2)) > 0 {
				y = 1
			}
			f = append(f, fmt.Sprint(y))
		}
		b.WriteString(strings.Join(f, ","))
		b.WriteByte('\n')
	}
	return b.String()
}

func xs(idx ...int) []string {
	var out []string
	for _, j := range idx {
		out = append(out, fmt.Sprintf("x%d", j))
	}
	return out
}

func seq(a, b int) []int {
	var out []int
	for j := a; j <= b; j++ {
		out = append(out, j)
	}
	return out
}

func modelNames(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := modelfile.ReadHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	return h.Names
}

// The training file's header names are stored in the model; info lists
// them; predict and eval check a file's header against them (W4: the header
// x2,…,x13,y on a 13-input model is refused, naming column index 0).
func TestFeatureNames(t *testing.T) {
	dir := t.TempDir()
	all := seq(1, 13)
	data := writeFile(t, dir, "train.csv", wideCSV(80, append(xs(all...), "y"), all, true))
	model := filepath.Join(dir, "m.model")
	rfkit(t, "train", "-method", "rks", "-param", "features=20", "-data", data, "-model", model, "-quiet").ok(t)
	if got := modelNames(t, model); !slices.Equal(got, xs(all...)) {
		t.Fatalf("stored names %q", got)
	}

	r := rfkit(t, "info", model).ok(t)
	if !strings.Contains(r.stdout, "\nnames    x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13\n") {
		t.Errorf("info:\n%s", r.stdout)
	}
	r = rfkit(t, "info", "-json", model).ok(t)
	var j struct{ Names []string }
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || !slices.Equal(j.Names, xs(all...)) {
		t.Errorf("info -json names %q (%v): %s", j.Names, err, r.stdout)
	}

	// The same columns, with or without the label, in the training order.
	nolabel := writeFile(t, dir, "nolabel.csv", wideCSV(5, xs(all...), all, false))
	for _, f := range []string{data, nolabel} {
		if r := rfkit(t, "predict", "-model", model, "-data", f).ok(t); len(lines(r.stdout)) == 0 {
			t.Errorf("%s: no predictions", f)
		}
	}
	rfkit(t, "eval", "-model", model, "-data", data).ok(t)

	// W4: x1 dropped, so the label column y is read as the 13th input.
	shifted := writeFile(t, dir, "shifted.csv", wideCSV(5, append(xs(seq(2, 13)...), "y"), seq(2, 13), true))
	want := `shifted.csv: feature column index 0 (of 13) is named "x2", but the model's input 0 is "x1"`
	rfkit(t, "predict", "-model", model, "-data", shifted).fails(t, 1, want)
	rfkit(t, "eval", "-model", model, "-data", shifted).fails(t, 1, want)
	if r := rfkit(t, "predict", "-model", model, "-data", shifted, "-ignore-names").ok(t); len(lines(r.stdout)) != 5 {
		t.Errorf("-ignore-names: %q", r.stdout)
	}

	// Two columns swapped (with a label column): the first one is named.
	perm := append(seq(1, 11), 13, 12)
	swapped := writeFile(t, dir, "swapped.csv", wideCSV(5, append(xs(perm...), "y"), perm, true))
	rfkit(t, "eval", "-model", model, "-data", swapped).fails(t, 1, `feature column index 11 (of 13) is named "x13", but the model's input 11 is "x12"`)
	rfkit(t, "eval", "-model", model, "-data", swapped, "-ignore-names").ok(t)

	// A LIBSVM file has no names to check.
	var svm strings.Builder
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&svm, "1 1:%d 13:0.5\n", i)
	}
	svmFile := writeFile(t, dir, "d.svm", svm.String())
	rfkit(t, "predict", "-model", model, "-data", svmFile).ok(t)
}

// A model trained without names (LIBSVM) has none to list or check; a
// header a model cannot store (two columns of one name) trains with a
// warning and no names.
func TestFeatureNamesAbsent(t *testing.T) {
	dir := t.TempDir()
	svm := writeFile(t, dir, "train.svm", libsvmText(moons(t, 60, 1, -1, 1)))
	model := filepath.Join(dir, "m.model")
	rfkit(t, "train", "-method", "rks", "-data", svm, "-model", model, "-quiet").ok(t)
	if got := modelNames(t, model); got != nil {
		t.Errorf("LIBSVM model has names %q", got)
	}
	if r := rfkit(t, "info", model).ok(t); strings.Contains(r.stdout, "names") {
		t.Errorf("info lists names:\n%s", r.stdout)
	}
	if r := rfkit(t, "info", "-json", model).ok(t); strings.Contains(r.stdout, `"names"`) {
		t.Errorf("info -json lists names: %s", r.stdout)
	}
	anyCSV := writeFile(t, dir, "any.csv", "p,q\n1,2\n")
	rfkit(t, "predict", "-model", model, "-data", anyCSV).ok(t)

	dup := writeFile(t, dir, "dup.csv", "a,a,y\n1,2,1\n2,1,-1\n3,3,1\n0,1,-1\n")
	r := rfkit(t, "train", "-method", "rks", "-data", dup, "-model", model).ok(t)
	if !strings.Contains(r.stderr, `warning: the model stores no feature names (feature names 0 and 1 are both "a")`) {
		t.Errorf("stderr %q", r.stderr)
	}
	if got := modelNames(t, model); got != nil {
		t.Errorf("names %q from a header with a duplicate", got)
	}
}

// train -resume keeps the model's names, and refuses data whose header
// names other features unless -ignore-names.
func TestFeatureNamesResume(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 60, 1, -1, 1), true)) // x0, x1, y
	old := filepath.Join(dir, "old.model")
	rfkit(t, "train", "-method", "rrf", "-param", "features=10", "-data", data, "-model", old, "-quiet").ok(t)
	if got := modelNames(t, old); !slices.Equal(got, []string{"x0", "x1"}) {
		t.Fatalf("names %q", got)
	}
	next := filepath.Join(dir, "next.model")
	rfkit(t, "train", "-method", "rrf", "-resume", old, "-data", data, "-param", "epochs=1", "-model", next, "-quiet").ok(t)
	if got := modelNames(t, next); !slices.Equal(got, []string{"x0", "x1"}) {
		t.Errorf("resumed names %q", got)
	}
	// LIBSVM data has no names: the model's are kept.
	svm := writeFile(t, dir, "d.svm", libsvmText(moons(t, 20, 2, -1, 1)))
	rfkit(t, "train", "-method", "rrf", "-resume", old, "-data", svm, "-param", "epochs=1", "-model", next, "-quiet").ok(t)
	if got := modelNames(t, next); !slices.Equal(got, []string{"x0", "x1"}) {
		t.Errorf("resumed on LIBSVM: names %q", got)
	}
	other := writeFile(t, dir, "other.csv", strings.Replace(csvText(moons(t, 20, 3, -1, 1), true), "x0,x1", "x1,x0", 1))
	rfkit(t, "train", "-method", "rrf", "-resume", old, "-data", other, "-model", next, "-quiet").fails(t, 1, `feature column index 0 (of 2) is named "x1", but the model's input 0 is "x0"`)
	rfkit(t, "train", "-method", "rrf", "-resume", old, "-data", other, "-model", next, "-quiet", "-ignore-names").ok(t)
	if got := modelNames(t, next); !slices.Equal(got, []string{"x0", "x1"}) {
		t.Errorf("resumed with -ignore-names: names %q", got)
	}
}
