package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
)

// panelSet is one data set of the panel: its name in the tables, its CSV
// file under the data directory (header row, label or target in the last
// column y) and the task every learner fits on it.
type panelSet struct {
	Name string
	File string
	Task learners.Task
	// Table1 marks the 16 binary sets of the GBRFF paper's Table 1: the
	// headline's binary totals are over these.
	Table1 bool
}

// panelSets is the panel in table order: the 16 binary sets of the GBRFF
// paper's Table 1, a9a's training file (the largest binary set), the four
// multiclass versions and the five regression sets of ../shared/datasets.
var panelSets = []panelSet{
	{"wine", "wine/wine.csv", learners.Binary, true},
	{"sonar", "sonar/sonar.csv", learners.Binary, true},
	{"newthyroid", "newthyroid/newthyroid.csv", learners.Binary, true},
	{"heart", "heart/heart.csv", learners.Binary, true},
	{"bupa", "bupa/bupa.csv", learners.Binary, true},
	{"iono", "iono/iono.csv", learners.Binary, true},
	{"wdbc", "wdbc/wdbc.csv", learners.Binary, true},
	{"balance", "balance/balance.csv", learners.Binary, true},
	{"australian", "australian/australian.csv", learners.Binary, true},
	{"pima", "pima/pima.csv", learners.Binary, true},
	{"vehicle", "vehicle/vehicle.csv", learners.Binary, true},
	{"german", "german/german.csv", learners.Binary, true},
	{"splice", "splice/splice.csv", learners.Binary, true},
	{"spambase", "spambase/spambase.csv", learners.Binary, true},
	{"occupancy", "occupancy/occupancy.csv", learners.Binary, true},
	{"bankmarketing", "bankmarketing/bankmarketing.csv", learners.Binary, true},
	{"a9a", "adult_a9a/a9a_train.csv", learners.Binary, false},
	{"wine-mc", "wine/wine_multiclass.csv", learners.Multiclass, false},
	{"balance-mc", "balance/balance_multiclass.csv", learners.Multiclass, false},
	{"vehicle-mc", "vehicle/vehicle_multiclass.csv", learners.Multiclass, false},
	{"newthyroid-mc", "newthyroid/newthyroid_multiclass.csv", learners.Multiclass, false},
	{"cpu_act", "cpu_act/cpu_act.csv", learners.Regression, false},
	{"elevators", "elevators/elevators.csv", learners.Regression, false},
	{"ailerons", "ailerons/ailerons.csv", learners.Regression, false},
	{"casp", "casp/casp.csv", learners.Regression, false},
	{"cadata", "cadata/cadata.csv", learners.Regression, false},
}

// lookupSet returns the panel set called name.
func lookupSet(name string) (panelSet, bool) {
	i := slices.IndexFunc(panelSets, func(s panelSet) bool { return s.Name == name })
	if i < 0 {
		return panelSet{}, false
	}
	return panelSets[i], true
}

// setNames lists the panel's set names in table order.
func setNames() []string {
	out := make([]string, len(panelSets))
	for i, s := range panelSets {
		out[i] = s.Name
	}
	return out
}

// selectSets parses -sets: a comma-separated list of set names and the
// groups "binary", "table1", "multiclass" and "regression"; empty means
// every set. The result is in table order, without repeats.
func selectSets(list string) ([]panelSet, error) {
	if strings.TrimSpace(list) == "" {
		return slices.Clone(panelSets), nil
	}
	want := map[string]bool{}
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(strings.ToLower(item))
		if item == "" {
			continue
		}
		group := false
		for _, s := range panelSets {
			if (item == "table1" && s.Table1) || item == s.Task.String() {
				want[s.Name], group = true, true
			}
		}
		if group {
			continue
		}
		if _, ok := lookupSet(item); !ok {
			return nil, fmt.Errorf("-sets: unknown set %q (the panel has %s, and the groups table1, binary, multiclass, regression)",
				item, strings.Join(setNames(), ", "))
		}
		want[item] = true
	}
	var out []panelSet
	for _, s := range panelSets {
		if want[s.Name] {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-sets %q: no set", list)
	}
	return out, nil
}

// loadSet reads a set's CSV and checks its labels fit its task: ±1 for a
// binary set, integers for a multiclass one.
func loadSet(dir string, s panelSet) (*dataset.Dataset, error) {
	ds, err := dataset.LoadCSV(filepath.Join(dir, s.File), dataset.CSVOptions{})
	if err != nil {
		return nil, fmt.Errorf("set %s: %w", s.Name, err)
	}
	if err := ds.Validate(); err != nil {
		return nil, fmt.Errorf("set %s: %w", s.Name, err)
	}
	for i, v := range ds.Y {
		switch {
		case s.Task == learners.Binary && v != 1 && v != -1:
			return nil, fmt.Errorf("set %s: label %v in row %d, want -1 or +1", s.Name, v, i+1)
		case s.Task == learners.Multiclass && v != float64(int64(v)):
			return nil, fmt.Errorf("set %s: label %v in row %d, want an integer class", s.Name, v, i+1)
		}
	}
	return ds, nil
}
