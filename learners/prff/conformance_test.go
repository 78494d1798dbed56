package prff_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/prff"
)

// rings and sine are the suite's data sets, the same bits everywhere.
var rings, sine = learnertest.Rings, learnertest.Sine

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "prff", Tasks: learnertest.AllTasks, Params: []string{"features=8", "maxiter=20"}, Rounds: 9, NumParams: 13}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
