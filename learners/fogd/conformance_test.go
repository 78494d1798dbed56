package fogd_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "fogd", Online: true, Tasks: learnertest.AllTasks, Params: []string{"features=20"},
	Golden: map[string][]string{
		"multiclass": {"task=multiclass", "features=20", "epochs=2", "seed=3"},
		"fit-hinge":  {"features=20", "eta=0.5", "epochs=2", "seed=5", "search=false"},
		"fit-eps":    {"task=regression", "loss=eps", "features=24", "gamma=0.05", "epochs=2", "seed=6", "search=false"},
	}}

func TestConformance(t *testing.T) {
	learnertest.Run(t, conformance)
	learnertest.RunOnline(t, learnertest.Online[fogd.Config, *fogd.Model, *fogd.Learner]{Case: conformance,
		Fit: fogd.Fit, NewLearner: fogd.NewLearner, Resume: fogd.Resume, Load: fogd.Load, Split: 173, Averaged: true,
		Splits: [][]string{{"eta=0.5"}, {"task=regression", "gamma=0.05"}, {"task=regression", "loss=eps", "features=16"}}})
}

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
