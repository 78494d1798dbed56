package nogd_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/nogd"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "nogd", Params: []string{"budget=20"}, NumParams: 8,
	Variants: [][]string{{"shuffle=false", "epochs=2"}}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
