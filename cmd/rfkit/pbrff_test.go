package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPBRFFMulticlass: pbrff trains a multiclass model (-task auto on
// three integer labels) with real-valued sample weights (it takes them
// itself: 0.5 is not a repeat count), writes probabilities per class,
// cross-validates over a grid with the weights, and still refuses
// regression.
func TestPBRFFMulticlass(t *testing.T) {
	dir := t.TempDir()
	weights := func(i int) string { return []string{"0.5", "1", "2"}[(i/3)%3] }
	data := writeFile(t, dir, "w.csv", blobsCSV(150, 3, weights))
	plain := writeFile(t, dir, "p.csv", blobsCSV(150, 3, nil))
	model := filepath.Join(dir, "pb.model")
	r := rfkit(t, "train", "-method", "pbrff", "-param", "landmarks=20", "-data", data, "-weight", "w", "-model", model).ok(t)
	if !strings.Contains(r.stdout, "pbrff: multiclass (3 classes) on 150 rows × 2 inputs") || !strings.Contains(r.stdout, "training accuracy 1;") {
		t.Errorf("train: %q", r.stdout)
	}
	out := rfkit(t, "predict", "-model", model, "-data", plain, "-output", "proba").ok(t).stdout
	if l := lines(out); len(l) != 151 || l[0] != "p_1,p_2,p_3" || strings.Count(l[1], ",") != 2 {
		t.Errorf("predict -output proba: %q…", l[:min(3, len(l))])
	}
	r = rfkit(t, "cv", "-method", "pbrff", "-task", "multiclass", "-data", data, "-weight", "w", "-grid", "landmarks=5,20", "-folds", "3").ok(t)
	if !strings.Contains(r.stdout, "multiclass, 3-fold stratified") || !strings.Contains(r.stdout, "best: landmarks=") {
		t.Errorf("cv: %q", r.stdout)
	}
	rfkit(t, "train", "-method", "pbrff", "-task", "regression", "-data", plain, "-model", model).fails(t, 2, "pbrff cannot do regression; methods that can: ")
}
