package pbrff_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/pbrff"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "pbrff", Params: []string{"landmarks=5", "k=4"}, Rounds: 2, NumParams: 9, Tasks: []learners.Task{learners.Binary}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
