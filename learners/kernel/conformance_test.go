package kernel_test

import (
	"testing"

	_ "github.com/rfkit/rfkit/learners/kernel"
	"github.com/rfkit/rfkit/learners/learnertest"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "kernel", Params: []string{"subsample=60"}, Rounds: 2, NumParams: 6, NoLoss: []int{1}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
