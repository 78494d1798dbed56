package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
)

// testFrac is the test part of every split: 70/30.
const testFrac = 0.3

// split is one train/test split of a set: indices of its CSV's data rows
// (0-based, header excluded), each list increasing.
type split struct {
	Seed  int   `json:"seed"`
	Train []int `json:"train"`
	Test  []int `json:"test"`
}

// splitFile is what the peers script reads: the set, its file (relative
// to the data directory), its task and its splits, so that the peers fit
// exactly the rows the Go learners fit.
type splitFile struct {
	Set    string  `json:"set"`
	File   string  `json:"file"`
	Task   string  `json:"task"`
	Rows   int     `json:"rows"`
	Splits []split `json:"splits"`
}

// makeSplit is split seed of a set of n rows with labels y: stratified
// (dataset.StratifiedSplit, seed s) for classification, a seeded uniform
// permutation for regression, 30 % of the rows in the test part.
func makeSplit(s panelSet, y []float64, seed int) split {
	if s.Task == learners.Binary || s.Task == learners.Multiclass {
		tr, te := dataset.StratifiedSplit(y, testFrac, uint64(seed))
		return split{Seed: seed, Train: tr, Test: te}
	}
	n := len(y)
	perm := rand.New(rand.NewPCG(uint64(seed), 0x9a4e1)).Perm(n)
	nt := int(math.Round(testFrac * float64(n)))
	te, tr := slices.Clone(perm[:nt]), slices.Clone(perm[nt:])
	slices.Sort(te)
	slices.Sort(tr)
	return split{Seed: seed, Train: tr, Test: te}
}

// splitPath is where a set's split file goes under the output directory.
func splitPath(out, set string) string {
	return filepath.Join(out, "splits", set+".json")
}

// writeSplits writes a set's split file (atomically), seeds 0..k-1.
func writeSplits(out string, s panelSet, y []float64, k int) ([]split, error) {
	f := splitFile{Set: s.Name, File: s.File, Task: s.Task.String(), Rows: len(y)}
	for seed := range k {
		f.Splits = append(f.Splits, makeSplit(s, y, seed))
	}
	data, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	p := splitPath(out, s.Name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	if err := resultfile.Write(p, append(data, '\n')); err != nil {
		return nil, fmt.Errorf("split file: %w", err)
	}
	return f.Splits, nil
}
