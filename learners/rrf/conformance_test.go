package rrf_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/rrf"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "rrf", Tasks: learnertest.AllTasks, Params: []string{"features=20", "epochs=2"}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
