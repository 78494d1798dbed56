package pbrff_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	_ "github.com/rfkit/rfkit/learners/pbrff"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "pbrff", Params: []string{"landmarks=5", "k=4"}, Rounds: 2, NumParams: 14, Tasks: []learners.Task{learners.Binary, learners.Multiclass},
	Variants: [][]string{{"loss=logistic"}}, VariantTasks: []learners.Task{learners.Binary},
	Golden: map[string][]string{"multiclass": {"task=multiclass", "landmarks=12", "k=5", "seed=2"}},
	BadParams: map[string]string{
		"landmarks=-1": "Landmarks = -1, want 1..65536", "landmarks=65537": "Landmarks = 65537",
		"k=-3": "K = -3, want 1..4096", "k=4097": "K = 4097",
		"landmarks=4096 k=4096":      "Landmarks·K = 4096·4096 = 16777216 random frequencies, want at most 1048576",
		"gamma=-1":                   "Gamma = -1, want a finite value in (0, 1e+06]",
		"beta=-0.5":                  "Beta = -0.5, want a finite value in (0, 1e+06]",
		"c=-1":                       "C = -1, want a finite value in (0, 1e+06]",
		"loss=ridge":                 `unknown Loss "ridge", want "hinge", "squared-hinge" or "logistic"`,
		"task=regression":            "Task = regression, want binary, multiclass",
		"task=multiclass loss=hinge": "Loss = hinge: the multiclass task fits multinomial logistic regression",
	}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
