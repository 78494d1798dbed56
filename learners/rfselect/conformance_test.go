package rfselect_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/rfselect"
)

// rings is the suite's data set, the same bits everywhere.
var rings = learnertest.Rings

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "eerf", Tasks: learnertest.AllTasks, Prefix: "rfselect: ", Params: []string{"features=20"}, Rounds: 3, NumParams: 12, NoLoss: []int{1, 2},
	Accuracy: &learnertest.Learns{Rings: 0.90, Sine: 0.3, Each: [][]string{{"loss=ridge"}}},
	Resolved: map[string][]string{"task=regression": {"Loss=ridge"}},
	BadParams: learnertest.With(learnertest.Linear, map[string]string{
		"features=10 candidates=5": "Candidates = 5 is below Features = 10",
		"features=0 candidates=50": "Candidates = 50 is below Features = 100",
	}),
	Golden: map[string][]string{
		"eerf-logistic": {"features=20", "seed=3"},
		"eerf-ridge":    {"features=20", "task=regression", "lambda=1e-4", "seed=4"},
	}}
var lkrf = learnertest.Case{Method: "lkrf", Tasks: learnertest.AllTasks, Prefix: "rfselect: ", Params: []string{"features=20"}, Rounds: 3, NumParams: 12, NoLoss: []int{1, 2},
	Golden: map[string][]string{"lkrf-logistic": {"features=20", "seed=3"}, "multiclass": {"task=multiclass", "features=20", "seed=3"}}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance); learnertest.Run(t, lkrf) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
