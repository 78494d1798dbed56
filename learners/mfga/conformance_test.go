package mfga_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/internal/learnertest"
	_ "github.com/rfkit/rfkit/learners/mfga"
)

// rings and sine are the suite's data sets, the same bits everywhere.
var rings, sine = learnertest.Rings, learnertest.Sine

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "mfga", Tasks: learnertest.AllTasks, Params: []string{"features=6"}, Rounds: 6, NumParams: 12, Negative: []string{"tol"}, FreeArrays: []string{"risk"},
	BadParams: map[string]string{"features=16385": "Features = 16385, want 1..16384", "degree=3": "Degree = 3, want 1..2"},
	Golden:    map[string][]string{"multiclass": {"task=multiclass", "degree=2", "features=8"}}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
