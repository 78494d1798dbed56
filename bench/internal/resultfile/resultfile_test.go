package resultfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

func TestOutputKeepsOldFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.md")
	if err := Output(p, func(w io.Writer) error { _, err := io.WriteString(w, "old\n"); return err }); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("run failed")
	err := Output(p, func(w io.Writer) error {
		io.WriteString(w, "half a table")
		return bad
	})
	if !errors.Is(err, bad) {
		t.Fatalf("error %v, want the run's", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old\n" {
		t.Errorf("file is %q after a failed run, want the old content", b)
	}
	es, _ := os.ReadDir(filepath.Dir(p))
	if len(es) != 1 {
		t.Errorf("%d files left, want 1", len(es))
	}
}

func TestSavePlotSameAsSave(t *testing.T) {
	dir := t.TempDir()
	p := plot.New()
	p.Title.Text = "t"
	a, b := filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png")
	if err := p.Save(2*vg.Inch, 2*vg.Inch, a); err != nil {
		t.Fatal(err)
	}
	if err := SavePlot(p, 2*vg.Inch, 2*vg.Inch, b); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if len(x) == 0 || !bytes.Equal(x, y) {
		t.Errorf("SavePlot wrote %d bytes, Save %d, not the same", len(y), len(x))
	}
	if err := SavePlot(p, vg.Inch, vg.Inch, filepath.Join(dir, "c.nosuch")); err == nil {
		t.Error("no error for an unknown image format")
	}
}
