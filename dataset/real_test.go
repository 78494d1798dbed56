package dataset

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sharedDatasets locates the shared data sets, which CI keeps beside the
// repository (../shared relative to the repository root).
func sharedDatasets(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "datasets")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared data sets not found at %s: %v", dir, err)
	}
	return dir
}

func TestRealWine(t *testing.T) {
	dir := sharedDatasets(t)
	ds, err := LoadCSV(filepath.Join(dir, "wine", "wine.csv"), CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if ds.N != 178 || ds.D != 13 || ds.LabelName != "y" || ds.FeatureNames[0] != "x1" || ds.FeatureNames[12] != "x13" {
		t.Fatalf("wine: N=%d D=%d label %q names %v", ds.N, ds.D, ds.LabelName, ds.FeatureNames)
	}
	if !slices.Equal(ds.Row(0), []float64{14.23, 1.71, 2.43, 15.6, 127, 2.8, 3.06, 0.28, 2.29, 5.64, 1.04, 3.92, 1065}) {
		t.Errorf("wine row 0 = %v", ds.Row(0))
	}
	npos := 0
	for _, v := range ds.Y {
		switch v {
		case 1:
			npos++
		case -1:
		default:
			t.Fatalf("wine label %v, want ±1", v)
		}
	}
	if npos != 59 {
		t.Errorf("wine has %d positives, want 59", npos)
	}
	folds, err := StratifiedKFold(ds.Y, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	isPartition(t, ds.N, folds...)
	train, test := StratifiedSplit(ds.Y, 0.3, 1)
	isPartition(t, ds.N, train, test)
}

// TestRealA9A checks the header of the a9a test CSV and that it agrees with
// the original LIBSVM file it was converted from.
func TestRealA9A(t *testing.T) {
	dir := filepath.Join(sharedDatasets(t), "adult_a9a")
	csvPath := filepath.Join(dir, "a9a_test.csv")
	if _, err := os.Stat(csvPath); err != nil {
		t.Skipf("%s not present", csvPath)
	}
	ds, err := LoadCSV(csvPath, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if ds.N != 16281 || ds.D != 123 || ds.LabelName != "y" || ds.FeatureNames[122] != "x123" {
		t.Fatalf("a9a_test: N=%d D=%d label %q", ds.N, ds.D, ds.LabelName)
	}
	svmPath := filepath.Join(dir, "orig", "a9a_test")
	if _, err := os.Stat(svmPath); err != nil {
		return
	}
	sv, err := LoadLIBSVM(svmPath, LIBSVMOptions{NumFeatures: 123})
	if err != nil {
		t.Fatal(err)
	}
	if sv.N != ds.N || sv.D != ds.D || !slices.Equal(sv.X, ds.X) || !slices.Equal(sv.Y, ds.Y) {
		t.Errorf("LIBSVM a9a_test (N=%d D=%d) differs from the CSV", sv.N, sv.D)
	}
}
