package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainHeldOutCheck: the summary line of a classifier's default fit
// reports the held-out accuracy against the class prior and the number of
// settings its search compared.
func TestTrainHeldOutCheck(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "b.csv", blobsCSV(150, 2, nil))
	model := filepath.Join(dir, "rks.model")
	r := rfkit(t, "train", "-method", "rks", "-data", data, "-model", model).ok(t)
	if !strings.Contains(r.stdout, "held-out accuracy ") || !strings.Contains(r.stdout, "(class prior 0.5") || !strings.Contains(r.stdout, "best of 3 settings)") || strings.Contains(r.stdout, "WORSE") {
		t.Errorf("train: %q", r.stdout)
	}
}
