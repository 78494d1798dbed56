package dataset_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
)

// TestRealWineStandardize: the test part of a stratified split of wine,
// scaled (Scaler) with the learners.Standardize statistics of its
// training part, is valid data. It is an external test because package
// learners imports dataset.
func TestRealWineStandardize(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "datasets", "wine", "wine.csv")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared data sets not found: %v", err)
	}
	ds, err := dataset.LoadCSV(path, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	train, test := dataset.StratifiedSplit(ds.Y, 0.3, 1)
	mean, scale, _, err := learners.Standardize(ds.Subset(train).Matrix())
	if err != nil {
		t.Fatal(err)
	}
	te := ds.Subset(test)
	(&dataset.Scaler{Mean: mean, Scale: scale}).Transform(te.X, te.X)
	if err := te.Validate(); err != nil {
		t.Fatal(err)
	}
}
