package fogd_test

import (
	"testing"

	_ "github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/learnertest"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "fogd", Tasks: learnertest.AllTasks, Params: []string{"features=20"}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
