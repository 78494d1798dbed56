package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTrainThreads: -param threads=N (the Config field learners.Threads
// every batch learner has) sets the fit's goroutine limit, and the model
// file is the same bytes for any value; an online learner has no such
// parameter.
func TestTrainThreads(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 600, 1, 0, 1), true))
	var want []byte
	for _, th := range []string{"1", "2", "0"} {
		model := filepath.Join(dir, "m"+th+".model")
		rfkit(t, "train", "-method", "rks", "-data", data, "-param", "features=50", "-param", "threads="+th, "-model", model).ok(t)
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b
		} else if !bytes.Equal(b, want) {
			t.Errorf("threads=%s: model bytes differ from threads=1", th)
		}
	}
	rfkit(t, "train", "-method", "rks", "-data", data, "-param", "threads=-1", "-model", filepath.Join(dir, "x.model")).fails(t, 2, "Threads = -1")
	rfkit(t, "train", "-method", "fogd", "-data", data, "-param", "threads=1", "-model", filepath.Join(dir, "x.model")).fails(t, 2, `unknown parameter "threads"`)
}
