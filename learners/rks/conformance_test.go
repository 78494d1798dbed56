package rks_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/rks"
)

// rings is the suite's data set, the same bits everywhere.
var rings = learnertest.Rings

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "rks", Params: []string{"features=20"}, Rounds: 2, NumParams: 7,
	Variants: [][]string{{"map=orf"}, {"map=laplacian"}, {"map=nystrom"}, {"map=nystrom-kmeans++"}}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
