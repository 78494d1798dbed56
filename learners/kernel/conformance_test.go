package kernel_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/kernel"
	"github.com/rfkit/rfkit/learners/learnertest"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "kernel", Params: []string{"subsample=60"}, Rounds: 2, NumParams: 7, NoLoss: []int{1},
	Variants: [][]string{{"loss=hinge", "c=2"}}, VariantTasks: []learners.Task{learners.Binary}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
