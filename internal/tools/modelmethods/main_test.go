package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLearnersUpToDate: every learner package whose Model embeds
// kit.ConfiguredBase has a model_methods.go equal to what this command
// writes, so that its serving methods show in go doc.
func TestLearnersUpToDate(t *testing.T) {
	dirs, err := filepath.Glob("../../../learners/*")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		var embeds bool
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(src, []byte("\ntype Model struct {\n\tkit.ConfiguredBase[")) {
				embeds = true
			}
		}
		if !embeds {
			continue
		}
		n++
		pkg := filepath.Base(dir)
		want, err := source(pkg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "model_methods.go"))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("learners/%s/model_methods.go is missing or stale (%v): run go generate ./learners/%s", pkg, err, pkg)
		}
	}
	if n < 10 {
		t.Errorf("found %d learner packages; the walk is broken", n)
	}
}

func TestSourceDeclaresServingMethods(t *testing.T) {
	src, err := source("demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"Config()", "Score(", "Predict(", "Probability(", "PredictBatch(", "MarshalBinary()"} {
		if !strings.Contains(string(src), "func (m *Model) "+m) {
			t.Errorf("generated file lacks %s", m)
		}
	}
	if !strings.HasPrefix(string(src), "// Code generated ") || !strings.Contains(string(src), "DO NOT EDIT.") {
		t.Error("generated file lacks the Code generated … DO NOT EDIT. header")
	}
}
