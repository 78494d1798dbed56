package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/learners/onnx"
)

func TestExport(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 60, 1, 0, 1), true))
	model := filepath.Join(dir, "rks.model")
	rfkit(t, "train", "-method", "rks", "-data", data, "-model", model).ok(t)
	out := filepath.Join(dir, "rks.onnx")
	rfkit(t, "export", "-format", "onnx", "-model", model, "-out", out).ok(t)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	want, err := onnx.Export(m.Model)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the exported file (%d bytes) is not onnx.Export's bytes (%d)", len(got), len(want))
	}
	if fs := files(t, dir); len(fs) != 3 {
		t.Errorf("files left: %v", fs)
	}
	bad := writeFile(t, dir, "bad.model", "RFKITMDL")
	rfkit(t, "export", "-model", bad, "-out", filepath.Join(dir, "bad.onnx")).fails(t, 1, "bad.model")
	if _, err := os.Stat(filepath.Join(dir, "bad.onnx")); err == nil {
		t.Error("a failed export left its output file")
	}

	rfkit(t, "export", "-model", model).fails(t, 2, "-out is required")
	rfkit(t, "export", "-out", out).fails(t, 2, "-model is required")
	rfkit(t, "export", "-format", "pmml", "-model", model, "-out", out).fails(t, 2, "the only format is onnx")
	if slices.Contains(methodNames(), "mfga") {
		mf := filepath.Join(dir, "mfga.model")
		rfkit(t, "train", "-method", "mfga", "-data", data, "-model", mf).ok(t)
		rfkit(t, "export", "-model", mf, "-out", filepath.Join(dir, "mfga.onnx")).ok(t)
	}
}
