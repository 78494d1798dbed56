package onnx_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"

	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/kernel"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/nogd"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rks"
	_ "github.com/rfkit/rfkit/learners/rrf"
	_ "github.com/rfkit/rfkit/learners/srff"
)

// kind is one exportable kind of model: a registered method with small
// settings (the runtime check is about the graph, not the accuracy).
type kind struct {
	name, method string
	params       map[string]string
	tasks        []learners.Task // nil: every task the method supports
}

var kinds = []kind{
	{"rks", "rks", map[string]string{"features": "200"}, nil},
	{"rks-laplacian", "rks", map[string]string{"features": "100", "map": "laplacian"}, nil},
	{"rks-nystrom", "rks", map[string]string{"features": "60", "map": "nystrom"}, []learners.Task{learners.Binary, learners.Regression}},
	{"eerf", "eerf", map[string]string{"features": "100"}, nil},
	{"lkrf", "lkrf", map[string]string{"features": "100"}, nil},
	{"prff", "prff", map[string]string{"features": "60", "maxiter": "20"}, nil},
	{"gbrff2", "gbrff2", map[string]string{"t": "40"}, nil},
	// regression at the defaults: early stopping over up to 1000 rounds on
	// encoded inputs (T unset is what selects that schedule)
	{"gbrff2-regression", "gbrff2", nil, []learners.Task{learners.Regression}},
	{"gbrff1", "gbrff1", map[string]string{"t": "10", "k": "5"}, nil},
	{"pbrff", "pbrff", map[string]string{"landmarks": "8"}, nil},
	{"srff", "srff", map[string]string{"features": "40"}, nil},
	{"fogd", "fogd", map[string]string{"features": "100"}, nil},
	{"rrf", "rrf", map[string]string{"features": "100"}, nil},
	{"nogd", "nogd", map[string]string{"budget": "40"}, nil},
	{"kernel", "kernel", map[string]string{"subsample": "200"}, nil},
	{"kernel-hinge", "kernel", map[string]string{"subsample": "200", "loss": "hinge"}, []learners.Task{learners.Binary}},
	{"mfga", "mfga", map[string]string{"features": "40"}, nil},
	{"mfga-degree1", "mfga", map[string]string{"features": "20", "degree": "1"}, nil},
}

// sets are three real data sets per task, with at most maxRows rows used.
var sets = map[learners.Task][]string{
	learners.Binary:     {"heart", "pima", "australian"},
	learners.Multiclass: {"wine", "vehicle", "balance"},
	learners.Regression: {"cpu_act", "elevators", "ailerons"},
}

const maxRows = 1500

// split is a data set's training and held-out rows.
type split struct {
	name  string
	task  learners.Task
	train *dataset.Dataset
	test  *dataset.Dataset
}

func loadSplit(t *testing.T, task learners.Task, name string) split {
	t.Helper()
	file := name + ".csv"
	if task == learners.Multiclass {
		file = name + "_multiclass.csv"
	}
	path := filepath.Join(learnertest.DatasetPath(), name, file)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("data set %s: %v (the runtime check needs ../shared/datasets)", name, err)
	}
	ds, err := dataset.LoadCSV(path, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.N > maxRows {
		idx := make([]int, maxRows)
		for i := range idx {
			idx[i] = i * (ds.N / maxRows)
		}
		ds = ds.Subset(idx)
	}
	var train, test []int
	if task == learners.Regression {
		for i := range ds.N {
			if i%10 < 7 {
				train = append(train, i)
			} else {
				test = append(test, i)
			}
		}
	} else {
		train, test = dataset.StratifiedSplit(ds.Y, 0.3, 1)
	}
	return split{name: name, task: task, train: ds.Subset(train), test: ds.Subset(test)}
}

// fit trains kind k for the task on s.train; ok is false when the method
// does not support the task.
func fit(t *testing.T, k kind, s split) (learners.Model, bool) {
	t.Helper()
	m, err := learners.Lookup(k.method)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Tasks, s.task) || k.tasks != nil && !slices.Contains(k.tasks, s.task) {
		return nil, false
	}
	cfg := m.NewConfig()
	params := map[string]string{"task": s.task.String(), "seed": "1"}
	for key, v := range k.params {
		params[key] = v
	}
	for key, v := range params {
		if err := learners.SetParam(cfg, key, v); err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
	}
	model, err := m.Fit(context.Background(), s.train.Matrix(), s.train.Y, cfg, nil)
	if err != nil {
		t.Fatalf("%s on %s: %v", k.name, s.name, err)
	}
	return model, model.Task() == s.task // srff fits a classification set as a regression
}

func (s split) String() string { return fmt.Sprintf("%s (%v)", s.name, s.task) }
