package srff_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/srff"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "srff", Params: []string{"features=20", "lambda=0.01", "maxiterations=5", "gammaiterations=5"}, Rounds: 1, Tasks: []learners.Task{learners.Regression}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
