package rrf_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rrf"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "rrf", Online: true, Tasks: learnertest.AllTasks, Params: []string{"features=20", "epochs=2"},
	Golden: map[string][]string{
		"multiclass":         {"task=multiclass", "loss=logistic", "features=16", "epochs=2", "seed=3"},
		"fit-hinge":          {"features=20", "eta=0.01", "epochs=2", "seed=7"},
		"fit-batch-logistic": {"features=20", "loss=logistic", "batchsize=16", "eta=0.05", "epochs=3", "seed=8"},
		"fit-eps":            {"task=regression", "loss=eps", "features=24", "width=0.3", "epochs=2", "seed=9"},
	}}

func TestConformance(t *testing.T) {
	learnertest.Run(t, conformance)
	learnertest.RunOnline(t, learnertest.Online[rrf.Config, *rrf.Model, *rrf.Learner]{Case: conformance,
		Fit: rrf.Fit, NewLearner: rrf.NewLearner, Resume: rrf.Resume, Load: rrf.Load, Split: 208,
		Splits: [][]string{{"eta=0.01", "etagamma=0.02"}, {"loss=logistic", "batchsize=16", "eta=0.05"},
			// η_γ set: Fit's l2 default follows the variance of each part's targets
			{"task=regression", "width=0.5", "etagamma=0.005"}, {"fixedwidths=true"}}})
}

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
