package gbrff_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "gbrff2", Prefix: "gbrff: ", Params: []string{"t=9"}, Tasks: []learners.Task{learners.Binary, learners.Regression, learners.Multiclass}}
var gbrff1 = learnertest.Case{Method: "gbrff1", Prefix: "gbrff: ", Params: []string{"t=5", "k=4"}, Tasks: []learners.Task{learners.Binary, learners.Regression, learners.Multiclass}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance); learnertest.Run(t, gbrff1) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
