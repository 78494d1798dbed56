package rfselect_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/rfselect"
)

// rings is the suite's data set, the same bits everywhere.
var rings = learnertest.Rings

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "eerf", Tasks: learnertest.AllTasks, Prefix: "rfselect: ", Params: []string{"features=20"}, Rounds: 3, NumParams: 10}
var lkrf = learnertest.Case{Method: "lkrf", Tasks: learnertest.AllTasks, Prefix: "rfselect: ", Params: []string{"features=20"}, Rounds: 3, NumParams: 10}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance); learnertest.Run(t, lkrf) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
